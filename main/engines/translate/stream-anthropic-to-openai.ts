import type { AnthropicStreamEvent, AnthropicUsage } from './anthropic-types.js';
import { openAIError, statusForAnthropicErrorType } from './errors.js';
import { openAICompletionId } from './ids.js';
import type { OpenAIChunk, OpenAIChunkDelta, OpenAIErrorBody, OpenAIFinishReason, OpenAIUsage } from './openai-types.js';
import { openAIFinishReason } from './reasons.js';
import { openAIUsageFromAnthropic } from './usage.js';

export interface AnthropicToOpenAIStreamOptions {
  /** Model name the client asked for; defaults to the upstream's. */
  model?: string;
  /** `created` in Unix seconds for every chunk; defaults to now. */
  created?: number;
  /** The client sent `stream_options.include_usage`: add the usage chunk before `[DONE]`. */
  includeUsage?: boolean;
}

/** What goes on the wire for an OpenAI client: a chunk, an error object, or the `[DONE]` marker. */
export type OpenAIStreamFrame = OpenAIChunk | OpenAIErrorBody | '[DONE]';

/**
 * Per-stream state turning Anthropic stream events into chat.completion.chunk objects: a first
 * chunk with the assistant role, content / reasoning_content / tool_calls deltas (tool calls keep
 * their own 0-based index, as OpenAI clients accumulate by it), a chunk with finish_reason, an
 * optional usage chunk with empty choices, then `[DONE]`.
 */
export class AnthropicToOpenAIStream {
  private started = false;
  private finished = false;
  private id = '';
  private model = '';
  private readonly created: number;
  /** Anthropic block index → OpenAI tool_calls index. */
  private readonly toolIndexOf = new Map<number, number>();
  private usage: Partial<AnthropicUsage> = {};
  private finish: OpenAIFinishReason | null = null;

  constructor(private readonly options: AnthropicToOpenAIStreamOptions = {}) {
    this.created = options.created ?? Math.floor(Date.now() / 1000);
  }

  get hasStarted(): boolean {
    return this.started;
  }

  push(event: AnthropicStreamEvent): OpenAIStreamFrame[] {
    if (this.finished) return [];
    const data = event.data;
    const type = typeof data.type === 'string' ? data.type : event.event;
    const out: OpenAIStreamFrame[] = [];
    if (!this.started && type !== 'error') out.push(this.start(type === 'message_start' ? data : undefined));
    switch (type) {
      case 'content_block_start':
        this.blockStart(out, data);
        break;
      case 'content_block_delta':
        this.blockDelta(out, data);
        break;
      case 'message_delta': {
        const delta = data.delta as { stop_reason?: string | null } | undefined;
        this.usage = { ...this.usage, ...definedUsage(data.usage) };
        if (delta?.stop_reason !== undefined) {
          this.finish = openAIFinishReason(delta.stop_reason);
          out.push(this.chunk({}, this.finish));
        }
        break;
      }
      case 'message_stop':
        out.push(...this.end());
        break;
      case 'error':
        return this.fail(statusForAnthropicErrorType((data.error as { type?: string } | undefined)?.type), errorMessage(data));
      default:
        break; // message_start (handled above), ping, content_block_stop carry nothing for OpenAI
    }
    return out;
  }

  /** Close the stream: finish chunk if none was sent, usage chunk when asked for, `[DONE]`. */
  end(): OpenAIStreamFrame[] {
    if (this.finished) return [];
    const out: OpenAIStreamFrame[] = [];
    if (!this.started) out.push(this.start(undefined));
    if (this.finish === null) {
      this.finish = this.toolIndexOf.size > 0 ? 'tool_calls' : 'stop';
      out.push(this.chunk({}, this.finish));
    }
    if (this.options.includeUsage) out.push({ ...this.chunk({}, null), choices: [], usage: this.openAIUsage() });
    out.push('[DONE]');
    this.finished = true;
    return out;
  }

  /** Mid-stream failure: OpenAI clients read an `{error}` object on the data line. */
  fail(status: number, message: string): OpenAIStreamFrame[] {
    if (this.finished) return [];
    this.finished = true;
    return [openAIError(status, message)];
  }

  private openAIUsage(): OpenAIUsage {
    return openAIUsageFromAnthropic(this.usage);
  }

  private start(messageStart: Record<string, unknown> | undefined): OpenAIChunk {
    this.started = true;
    const message = (messageStart?.message ?? {}) as { id?: string; model?: string; usage?: unknown };
    this.id = openAICompletionId(message.id);
    this.model = this.options.model ?? message.model ?? '';
    this.usage = definedUsage(message.usage);
    return this.chunk({ role: 'assistant', content: '' }, null);
  }

  private blockStart(out: OpenAIStreamFrame[], data: Record<string, unknown>): void {
    const block = data.content_block as { type?: string; id?: string; name?: string; text?: string; thinking?: string } | undefined;
    const index = Number(data.index ?? 0);
    if (block?.type === 'tool_use' || block?.type === 'server_tool_use') {
      const toolIndex = this.toolIndexOf.size;
      this.toolIndexOf.set(index, toolIndex);
      out.push(this.chunk({ tool_calls: [{ index: toolIndex, id: block.id ?? '', type: 'function', function: { name: block.name ?? '', arguments: '' } }] }, null));
    } else if (block?.type === 'text' && block.text) {
      out.push(this.chunk({ content: block.text }, null));
    } else if (block?.type === 'thinking' && block.thinking) {
      out.push(this.chunk({ reasoning_content: block.thinking }, null));
    }
  }

  private blockDelta(out: OpenAIStreamFrame[], data: Record<string, unknown>): void {
    const delta = data.delta as { type?: string; text?: string; thinking?: string; partial_json?: string } | undefined;
    switch (delta?.type) {
      case 'text_delta':
        if (delta.text) out.push(this.chunk({ content: delta.text }, null));
        break;
      case 'thinking_delta':
        if (delta.thinking) out.push(this.chunk({ reasoning_content: delta.thinking }, null));
        break;
      case 'input_json_delta': {
        const toolIndex = this.toolIndexOf.get(Number(data.index ?? 0));
        if (toolIndex !== undefined && delta.partial_json) {
          out.push(this.chunk({ tool_calls: [{ index: toolIndex, function: { arguments: delta.partial_json } }] }, null));
        }
        break;
      }
      default:
        break; // signature_delta and citations_delta have no OpenAI counterpart
    }
  }

  private chunk(delta: OpenAIChunkDelta, finish: OpenAIFinishReason | null): OpenAIChunk {
    return { id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [{ index: 0, delta, finish_reason: finish }] };
  }
}

/** Anthropic sends cumulative usage; fields a given event leaves out (or sends as null) must not wipe earlier ones. */
function definedUsage(usage: unknown): Partial<AnthropicUsage> {
  const out: Partial<AnthropicUsage> = {};
  if (!usage || typeof usage !== 'object') return out;
  for (const key of ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const) {
    const value = (usage as Record<string, unknown>)[key];
    if (typeof value === 'number') out[key] = value;
  }
  return out;
}

function errorMessage(data: Record<string, unknown>): string {
  const err = data.error as { message?: unknown } | undefined;
  return typeof err?.message === 'string' ? err.message : 'Upstream stream failed';
}
