import type { ServerResponse } from 'node:http';
import type { AppEventName, AppEvents } from '../services/events.js';

export interface EventHubLimits {
  /** Streams open at once; one more is answered 503. */
  maxSubscribers: number;
  /**
   * Bytes one stream may have waiting to be sent (its `writableLength`). A client that stops
   * reading stops emptying its socket; past this it is dropped (the connection is destroyed,
   * which frees what waited) and its EventSource reconnects when it reads again (issue 27).
   */
  maxBufferedBytes: number;
}

/**
 * The SSE streams of `/api/events` and the one set of app-event listeners they share: one
 * listener per event however many streams are open (a listener per stream per event set off
 * Node's MaxListenersExceededWarning past 100 streams, and that warning is meant to find leaks).
 * Each event is formatted once and written to every stream within its byte bound.
 */
export class EventHub {
  private readonly streams = new Set<ServerResponse>();
  private offs: Array<() => void> = [];
  /** Streams dropped for falling behind, since start (for the log and tests). */
  dropped = 0;

  constructor(
    private readonly events: AppEvents,
    private readonly names: readonly AppEventName[],
    private readonly limits: EventHubLimits,
    private readonly format: (name: string, payload: unknown) => string,
  ) {}

  get size(): number {
    return this.streams.size;
  }

  get full(): boolean {
    return this.streams.size >= this.limits.maxSubscribers;
  }

  /** Adds a stream that has sent its headers; it leaves by itself when its connection closes. */
  add(res: ServerResponse): void {
    if (this.streams.size === 0) this.listen();
    this.streams.add(res);
    res.once('close', () => this.remove(res));
  }

  /** Writes `text` to one stream, or drops the stream when that would pass its bound. */
  write(res: ServerResponse, text: string): void {
    if (!this.streams.has(res)) return;
    if (res.writableLength + Buffer.byteLength(text) > this.limits.maxBufferedBytes) return this.drop(res);
    res.write(text);
  }

  private broadcast(text: string): void {
    for (const res of this.streams) this.write(res, text);
  }

  private drop(res: ServerResponse): void {
    this.dropped++;
    this.remove(res);
    res.destroy();
  }

  private remove(res: ServerResponse): void {
    if (!this.streams.delete(res) || this.streams.size > 0) return;
    for (const off of this.offs) off();
    this.offs = [];
  }

  private listen(): void {
    this.offs = this.names.map((name) => this.events.on(name, (payload) => this.broadcast(this.format(name, payload))));
    // A clean end on shutdown: clients see the stream finish and reconnect after `retry`.
    this.offs.push(this.events.on('closing', () => this.streams.forEach((res) => res.end())));
  }
}
