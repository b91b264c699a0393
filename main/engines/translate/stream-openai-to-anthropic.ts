import type { AnthropicStreamEvent, AnthropicUsage } from './anthropic-types.js';
import { anthropicError } from './errors.js';
import { anthropicMessageId, anthropicToolId } from './ids.js';
import type { OpenAIChunk, OpenAIFinishReason } from './openai-types.js';
import { anthropicStopReason } from './reasons.js';
import { anthropicUsageFromOpenAI } from './usage.js';

export interface OpenAIToAnthropicStreamOptions {
  /** Model name the client asked for; defaults to the upstream chunk's `model`. */
  model?: string;
  /** Message id; defaults to one derived from the first chunk's id. */
  id?: string;
}

type OpenBlock = { kind: 'thinking' | 'text'; index: number } | { kind: 'tool'; index: number; toolIndex: number };

/**
 * Per-stream state turning OpenAI chat.completion.chunk objects into the Anthropic event sequence
 * Claude Code expects: message_start, then for each block content_block_start / _delta / _stop
 * (thinking_delta, text_delta, input_json_delta), then message_delta (stop_reason + usage) and
 * message_stop. Blocks never overlap: a new kind of delta closes the open block first.
 * The stop is held back until the stream ends because usage arrives in a chunk after finish_reason.
 */
export class OpenAIToAnthropicStream {
  private started = false;
  private finished = false;
  private open: OpenBlock | undefined;
  private nextIndex = 0;
  /** OpenAI tool_calls index → Anthropic block index of that tool. */
  private readonly tools = new Map<number, number>();
  private finish: OpenAIFinishReason | null = null;
  private usage: AnthropicUsage | undefined;
  private id: string | undefined;

  constructor(private readonly options: OpenAIToAnthropicStreamOptions = {}) {}

  /** True once message_start has been emitted. */
  get hasStarted(): boolean {
    return this.started;
  }

  /**
   * The index of the open text block while the message runs, else undefined: a content token
   * then becomes exactly one text_delta at this index (the SSE layer writes it without objects).
   */
  openTextIndex(): number | undefined {
    return !this.finished && this.open?.kind === 'text' ? this.open.index : undefined;
  }

  /** One upstream chunk → zero or more Anthropic events. */
  push(chunk: OpenAIChunk): AnthropicStreamEvent[] {
    if (this.finished) return [];
    const out: AnthropicStreamEvent[] = [];
    if (!this.started) out.push(this.messageStart(chunk));
    if (chunk.usage) this.usage = anthropicUsageFromOpenAI(chunk.usage);
    for (const choice of chunk.choices ?? []) {
      if (choice.index !== 0) continue; // Anthropic has one answer per message
      const delta = choice.delta ?? {};
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (reasoning) this.appendText(out, 'thinking', reasoning);
      const text = delta.content ?? delta.refusal;
      if (text) this.appendText(out, 'text', text);
      for (const call of delta.tool_calls ?? []) this.appendToolCall(out, call.index ?? 0, call.id, call.function?.name, call.function?.arguments);
      if (choice.finish_reason) this.finish = choice.finish_reason;
    }
    return out;
  }

  /** The upstream stream ended (`[DONE]` or end of body): close the open block and the message. */
  end(): AnthropicStreamEvent[] {
    if (this.finished) return [];
    const out: AnthropicStreamEvent[] = [];
    if (!this.started) out.push(this.messageStart(undefined));
    this.closeOpen(out);
    const usage = this.usage ?? anthropicUsageFromOpenAI(undefined);
    out.push({
      event: 'message_delta',
      data: { type: 'message_delta', delta: { stop_reason: anthropicStopReason(this.finish, this.tools.size > 0), stop_sequence: null }, usage },
    });
    out.push({ event: 'message_stop', data: { type: 'message_stop' } });
    this.finished = true;
    return out;
  }

  /** The upstream failed mid-stream: Anthropic clients expect an `error` event, then nothing. */
  fail(status: number, message: string): AnthropicStreamEvent[] {
    if (this.finished) return [];
    this.finished = true;
    return [{ event: 'error', data: { ...anthropicError(status, message) } }];
  }

  private messageStart(chunk: OpenAIChunk | undefined): AnthropicStreamEvent {
    this.started = true;
    this.id = this.options.id ?? anthropicMessageId(chunk?.id);
    const usage = chunk?.usage ? anthropicUsageFromOpenAI(chunk.usage) : { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    return {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: { id: this.id, type: 'message', role: 'assistant', model: this.options.model ?? chunk?.model ?? '', content: [], stop_reason: null, stop_sequence: null, usage },
      },
    };
  }

  private appendText(out: AnthropicStreamEvent[], kind: 'thinking' | 'text', text: string): void {
    if (this.open?.kind !== kind) {
      this.closeOpen(out);
      const index = this.nextIndex++;
      this.open = { kind, index };
      const block = kind === 'thinking' ? { type: 'thinking', thinking: '', signature: '' } : { type: 'text', text: '' };
      out.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: block } });
    }
    const delta = kind === 'thinking' ? { type: 'thinking_delta', thinking: text } : { type: 'text_delta', text };
    out.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index: this.open.index, delta } });
  }

  /**
   * A tool call with a new index opens a tool_use block; argument fragments stream as
   * input_json_delta. Fragments for an earlier, already closed call (servers that interleave
   * parallel calls) still go out under that call's block index so no argument text is lost.
   */
  private appendToolCall(out: AnthropicStreamEvent[], toolIndex: number, id: string | undefined, name: string | undefined, args: string | undefined): void {
    let blockIndex = this.tools.get(toolIndex);
    if (blockIndex === undefined) {
      this.closeOpen(out);
      blockIndex = this.nextIndex++;
      this.tools.set(toolIndex, blockIndex);
      this.open = { kind: 'tool', index: blockIndex, toolIndex };
      const toolId = anthropicToolId(id, `toolu_${(this.id ?? 'msg_').slice(4)}_${toolIndex}`);
      out.push({ event: 'content_block_start', data: { type: 'content_block_start', index: blockIndex, content_block: { type: 'tool_use', id: toolId, name: name ?? '', input: {} } } });
    }
    if (args) out.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index: blockIndex, delta: { type: 'input_json_delta', partial_json: args } } });
  }

  private closeOpen(out: AnthropicStreamEvent[]): void {
    if (!this.open) return;
    out.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index: this.open.index } });
    this.open = undefined;
  }
}
