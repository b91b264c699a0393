import type { AnthropicStreamEvent } from './anthropic-types.js';
import type { OpenAIChunk } from './openai-types.js';
import { AnthropicToOpenAIStream, type AnthropicToOpenAIStreamOptions, type OpenAIStreamFrame } from './stream-anthropic-to-openai.js';
import { OpenAIToAnthropicStream, type OpenAIToAnthropicStreamOptions } from './stream-openai-to-anthropic.js';
import { parseErrorBody } from './errors.js';
import { contentChunk, matchContentDelta } from './openai-chunk.js';
import { SseEventReader, type SseEvent } from './sse-events.js';

/** Response headers of every event stream the engines send to clients (no proxy buffering). */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

/** One Anthropic event as SSE text. */
export function encodeAnthropicEvent(event: AnthropicStreamEvent): string {
  const data = event.data as { type?: unknown; index?: unknown; delta?: { type?: unknown; text?: unknown } };
  // Text deltas are nearly every event of a stream: only the text goes through JSON.stringify
  // (same bytes as stringifying the whole object, whose key order this spells out).
  if (data.type === 'content_block_delta' && typeof data.index === 'number' && data.delta?.type === 'text_delta' && typeof data.delta.text === 'string' && keyCount(data) === 3 && keyCount(data.delta) === 2) {
    return textDeltaFrame(data.index, JSON.stringify(data.delta.text));
  }
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** A text_delta event whose text is the JSON string literal `literal` (quotes included), as SSE text. */
export function textDeltaFrame(index: number, literal: string): string {
  return `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":${literal}}}\n\n`;
}

function keyCount(o: object): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

/** One OpenAI frame as SSE text (`data:` lines only, as OpenAI sends them). */
export function encodeOpenAIFrame(frame: OpenAIStreamFrame): string {
  return `data: ${frame === '[DONE]' ? '[DONE]' : JSON.stringify(frame)}\n\n`;
}

/**
 * Raw upstream SSE text in, raw client SSE text out. Chunk boundaries may fall anywhere (inside a
 * line, inside a multi-byte character already decoded by the caller); the event reader buffers.
 */
export interface SseTranslator {
  /** Feed decoded upstream text; returns client SSE text to write now (may be empty). */
  feed(text: string): string;
  /** The upstream body ended; returns the closing frames (nothing if the stream already closed). */
  end(): string;
  /** The upstream failed mid-stream; returns the client's error frame. */
  fail(status: number, message: string): string;
  /** True once the closing frames were produced. */
  readonly done: boolean;
}

/** Upstream speaks OpenAI SSE (`data:` chunks, `[DONE]`); the client expects Anthropic events. */
export function createOpenAIToAnthropicSse(options: OpenAIToAnthropicStreamOptions = {}): SseTranslator {
  const stream = new OpenAIToAnthropicStream(options);
  return new BufferedTranslator(stream, encodeAnthropicEvent, (message, emit, close, write) => {
    if (message.data.trim() === '[DONE]') {
      emit(stream.end());
      close();
      return;
    }
    const token = matchContentDelta(message.data);
    if (token) {
      // Mid-text, a token is one text_delta: written from the upstream's own literal when that is
      // what JSON.stringify would give, with no chunk or event objects (an empty one adds nothing).
      const index = stream.openTextIndex();
      if (index !== undefined && token.verbatim) return token.literal.length > 2 ? write(textDeltaFrame(index, token.literal)) : undefined;
      const chunk = contentChunk(token);
      if (chunk) return emit(stream.push(chunk));
    }
    const parsed = parseJson(message.data);
    if (!parsed) return;
    if (parsed.error) {
      // OpenAI-compatible servers report a mid-stream failure as a data line holding {error}.
      emit(stream.fail(statusOf(parsed.error), parseErrorBody(message.data).message));
      close();
      return;
    }
    emit(stream.push(parsed as unknown as OpenAIChunk));
  });
}

/** Upstream speaks Anthropic SSE (named events); the client expects OpenAI chunks and `[DONE]`. */
export function createAnthropicToOpenAISse(options: AnthropicToOpenAIStreamOptions = {}): SseTranslator {
  const stream = new AnthropicToOpenAIStream(options);
  return new BufferedTranslator(stream, encodeOpenAIFrame, (message, emit, close) => {
    const parsed = parseJson(message.data);
    if (!parsed) return;
    const name = message.event ?? (typeof parsed.type === 'string' ? parsed.type : 'message');
    emit(stream.push({ event: name, data: parsed }));
    if (name === 'message_stop' || name === 'error') close();
  });
}

export interface ClosingStream<F> {
  end(): F[];
  fail(status: number, message: string): F[];
}

/** `emit` encodes frames, `write` appends SSE text already encoded, `close` marks the stream finished. */
export type EventHandler<F> = (message: SseEvent, emit: (frames: F[]) => void, close: () => void, write: (text: string) => void) => void;

/** Shared feed/end/fail plumbing: frames produced while parsing are collected, then handed out. */
export class BufferedTranslator<F> implements SseTranslator {
  private pending = '';
  private closed = false;
  private readonly parser: SseEventReader;

  constructor(
    private readonly stream: ClosingStream<F>,
    private readonly encode: (frame: F) => string,
    handle: EventHandler<F>,
  ) {
    const emit = (frames: F[]) => {
      for (const frame of frames) this.pending += this.encode(frame);
    };
    const close = () => {
      this.closed = true;
    };
    const write = (text: string) => {
      this.pending += text;
    };
    this.parser = new SseEventReader((message) => (this.closed ? undefined : handle(message, emit, close, write)));
  }

  get done(): boolean {
    return this.closed;
  }

  feed(text: string): string {
    this.parser.feed(text);
    return this.take();
  }

  end(): string {
    // A last event without its closing blank line still counts: flush it before closing.
    this.parser.feed('\n\n');
    let text = this.take();
    if (!this.closed) text += this.stream.end().map(this.encode).join('');
    this.closed = true;
    return text;
  }

  fail(status: number, message: string): string {
    let text = this.take();
    if (!this.closed) text += this.stream.fail(status, message).map(this.encode).join('');
    this.closed = true;
    return text;
  }

  private take(): string {
    const text = this.pending;
    this.pending = '';
    return text;
  }
}

export function parseJson(data: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // keep-alive noise or a broken line must not end the stream
  }
}

function statusOf(error: unknown): number {
  const e = error as { status?: unknown; code?: unknown } | null;
  const code = e?.status ?? e?.code;
  return typeof code === 'number' && code >= 400 && code < 600 ? code : 500;
}
