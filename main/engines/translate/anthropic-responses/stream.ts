import type { AnthropicStreamEvent, AnthropicUsage } from '../anthropic-types.js';
import { anthropicError } from '../errors.js';
import { anthropicToolId } from '../ids.js';
import { responsesFailure, type ResponsesFailure } from './failure.js';
import type { ResponsesResponse, ResponsesStreamEvent } from './responses-types.js';
import { anthropicMessageIdFor } from './response.js';
import type { ToolNames } from './tool-names.js';
import { anthropicUsageFromResponses, stopReasonOf } from './usage.js';

export interface ResponsesToAnthropicStreamOptions {
  /** The model name the client asked for; defaults to the upstream's. */
  model?: string;
  toolNames?: ToolNames;
}

type Block = { kind: 'thinking' | 'text'; index: number; item: string } | { kind: 'tool'; index: number; item: string; sawArguments: boolean };

/**
 * Per-stream state turning the backend's Responses events into the Anthropic event sequence Claude
 * Code expects. Reasoning items become thinking blocks whose signature is the item's encrypted
 * content (so the next request can hand the reasoning back), message text becomes text blocks,
 * function calls tool_use blocks. Blocks never overlap. `response.completed` / `.incomplete` close
 * the message; `response.failed` and `error` (which arrive inside a 200 stream) become an Anthropic
 * error event with the status the failure means.
 */
export class ResponsesToAnthropicStream {
  private started = false;
  private finished = false;
  private open: Block | undefined;
  private nextIndex = 0;
  private sawToolCall = false;
  private id: string | undefined;
  private model: string | undefined;
  /** Set when the stream ended in a failure (inside the 200 stream, or cut short). */
  failure: ResponsesFailure | undefined;

  constructor(private readonly options: ResponsesToAnthropicStreamOptions = {}) {}

  get done(): boolean {
    return this.finished;
  }

  push(event: ResponsesStreamEvent): AnthropicStreamEvent[] {
    if (this.finished) return [];
    const out: AnthropicStreamEvent[] = [];
    const response = isObject(event.response) ? (event.response as ResponsesResponse) : undefined;
    if (response?.id && !this.id) this.id = response.id;
    if (response?.model && !this.model) this.model = response.model;
    if (!this.started && event.type !== 'error' && event.type !== 'response.failed') out.push(this.messageStart());
    switch (event.type) {
      case 'response.output_item.added':
        this.itemAdded(out, event);
        break;
      case 'response.reasoning_summary_part.added':
        if (numberField(event, 'summary_index') > 0) this.append(out, 'thinking', stringField(event, 'item_id'), '\n\n');
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        this.append(out, 'thinking', stringField(event, 'item_id'), stringField(event, 'delta'));
        break;
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        this.append(out, 'text', stringField(event, 'item_id'), stringField(event, 'delta'));
        break;
      case 'response.function_call_arguments.delta':
        this.toolArguments(out, stringField(event, 'item_id'), stringField(event, 'delta'));
        break;
      case 'response.output_item.done':
        this.itemDone(out, event);
        break;
      case 'response.completed':
      case 'response.incomplete':
        this.finish(out, response);
        break;
      case 'response.failed':
      case 'error': {
        const failure = responsesFailure(event);
        return [...out, ...this.fail(failure.status, failure.message)];
      }
      default:
        break; // created, in_progress, content_part.*, *.done text events: nothing new for the client
    }
    return out;
  }

  /** The upstream body ended. Without `response.completed` the answer is cut short: the client gets an error, never a silently truncated message. */
  end(): AnthropicStreamEvent[] {
    if (this.finished) return [];
    return this.fail(502, 'The ChatGPT backend closed the stream before the response completed');
  }

  /** An error event; nothing follows it. */
  fail(status: number, message: string): AnthropicStreamEvent[] {
    if (this.finished) return [];
    this.finished = true;
    this.failure = { status, message };
    return [{ event: 'error', data: anthropicError(status, message) as unknown as Record<string, unknown> }];
  }

  private messageStart(): AnthropicStreamEvent {
    this.started = true;
    return {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: anthropicMessageIdFor(this.id),
          type: 'message',
          role: 'assistant',
          model: this.options.model ?? this.model ?? '',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      },
    };
  }

  private itemAdded(out: AnthropicStreamEvent[], event: ResponsesStreamEvent): void {
    const item = isObject(event.item) ? event.item : {};
    const itemId = stringField(item, 'id');
    // Reasoning and message items open their block at their first delta (or, for reasoning, its
    // signature): an item that brings nothing adds no empty block.
    if (item.type === 'function_call') {
      this.closeOpen(out);
      const index = this.nextIndex++;
      const name = stringField(item, 'name');
      this.open = { kind: 'tool', index, item: itemId, sawArguments: false };
      this.sawToolCall = true;
      out.push({
        event: 'content_block_start',
        data: {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: anthropicToolId(stringField(item, 'call_id'), `toolu_${index}`), name: this.options.toolNames?.client(name) ?? name, input: {} },
        },
      });
    }
  }

  private itemDone(out: AnthropicStreamEvent[], event: ResponsesStreamEvent): void {
    const item = isObject(event.item) ? event.item : {};
    const itemId = stringField(item, 'id');
    if (item.type === 'reasoning') {
      const signature = stringField(item, 'encrypted_content');
      if (signature.length > 0) {
        if (this.open?.kind !== 'thinking' || this.open.item !== itemId) this.openBlock(out, 'thinking', itemId);
        out.push(delta(this.open!.index, { type: 'signature_delta', signature }));
      }
      if (this.open?.kind === 'thinking' && this.open.item === itemId) this.closeOpen(out);
    } else if (item.type === 'function_call') {
      if (this.open?.kind === 'tool' && this.open.item === itemId) {
        // Some backends send the arguments only with the finished item.
        const args = stringField(item, 'arguments');
        if (!this.open.sawArguments && args.length > 0) out.push(delta(this.open.index, { type: 'input_json_delta', partial_json: args }));
        this.closeOpen(out);
      }
    } else if (item.type === 'message' && this.open?.kind === 'text' && this.open.item === itemId) this.closeOpen(out);
  }

  private append(out: AnthropicStreamEvent[], kind: 'thinking' | 'text', itemId: string, text: string): void {
    if (text.length === 0) return;
    if (this.open?.kind !== kind || this.open.item !== itemId) this.openBlock(out, kind, itemId);
    out.push(delta(this.open!.index, kind === 'text' ? { type: 'text_delta', text } : { type: 'thinking_delta', thinking: text }));
  }

  private toolArguments(out: AnthropicStreamEvent[], itemId: string, partial: string): void {
    if (this.open?.kind !== 'tool' || this.open.item !== itemId || partial.length === 0) return;
    this.open.sawArguments = true;
    out.push(delta(this.open.index, { type: 'input_json_delta', partial_json: partial }));
  }

  private openBlock(out: AnthropicStreamEvent[], kind: 'thinking' | 'text', itemId: string): void {
    this.closeOpen(out);
    const index = this.nextIndex++;
    this.open = { kind, index, item: itemId };
    const block = kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' };
    out.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: block } });
  }

  private closeOpen(out: AnthropicStreamEvent[]): void {
    if (!this.open) return;
    out.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index: this.open.index } });
    this.open = undefined;
  }

  private finish(out: AnthropicStreamEvent[], response: ResponsesResponse | undefined): void {
    this.closeOpen(out);
    const usage: AnthropicUsage = anthropicUsageFromResponses(response?.usage);
    out.push({
      event: 'message_delta',
      data: { type: 'message_delta', delta: { stop_reason: stopReasonOf(response, this.sawToolCall), stop_sequence: null }, usage },
    });
    out.push({ event: 'message_stop', data: { type: 'message_stop' } });
    this.finished = true;
  }
}

function delta(index: number, body: Record<string, unknown>): AnthropicStreamEvent {
  return { event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: body } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function stringField(o: Record<string, unknown>, key: string): string {
  const value = o[key];
  return typeof value === 'string' ? value : '';
}

function numberField(o: Record<string, unknown>, key: string): number {
  const value = o[key];
  return typeof value === 'number' ? value : 0;
}
