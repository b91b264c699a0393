/** Where an upstream body goes, chunk by chunk; exactly one of `end` and `error` closes it. */
export interface BodySink {
  data(chunk: Buffer): void;
  end(): void;
  error(err: Error): void;
}

/** undici's word for a connection the upstream closed before its answer, or its body, ended. */
export function closedByUpstream(err: Error): boolean {
  return (err as { code?: string }).code === 'UND_ERR_SOCKET';
}

/** What an upstream response needs from the HTTP client underneath (undici's DispatchController). */
export interface FlowControl {
  pause(): void;
  resume(): void;
  abort(reason: Error): void;
}

/**
 * An upstream response whose body is still arriving: status and headers, and the body handed to
 * one consumer as plain callbacks rather than a readable stream (a stream's machinery per call was
 * a visible share of the engine's CPU). Chunks that arrive before the consumer attaches wait
 * here, so none is lost between the headers and the first `consume`.
 */
export class UpstreamResponse {
  private sink: BodySink | undefined;
  private consumed = false;
  private early: Buffer[] = [];
  private outcome: 'ended' | Error | undefined;
  private destroyed = false;

  constructor(
    readonly statusCode: number,
    readonly headers: Readonly<Record<string, string | string[] | undefined>>,
    private readonly flow: FlowControl,
  ) {}

  /** One string header (the first of several), or undefined. */
  header(name: string): string | undefined {
    const value = this.headers[name];
    return Array.isArray(value) ? value[0] : value;
  }

  /** Hands the body to `sink`: what already came first, then the rest as it arrives. Once only. */
  consume(sink: BodySink): void {
    if (this.consumed) throw new Error('an upstream body has one consumer');
    this.consumed = true;
    // Chunks pushed while these are handed over (a synchronous resume) join the queue, in order.
    for (let i = 0; i < this.early.length; i++) {
      if (this.destroyed) return;
      sink.data(this.early[i]!);
    }
    this.early = [];
    if (this.destroyed) return;
    this.sink = sink;
    if (this.outcome === 'ended') sink.end();
    else if (this.outcome !== undefined) sink.error(this.outcome);
  }

  /** Backpressure: no more chunks until `resume`. */
  pause(): void {
    this.flow.pause();
  }

  resume(): void {
    this.flow.resume();
  }

  /** Stops the body: the connection is dropped, and the consumer hears nothing more. */
  destroy(reason: Error = new Error('upstream body abandoned')): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.early = [];
    if (this.outcome === undefined) this.flow.abort(reason);
  }

  // The HTTP client's side.

  push(chunk: Buffer): void {
    if (this.destroyed || this.outcome !== undefined) return;
    if (this.sink) this.sink.data(chunk);
    else this.early.push(chunk);
  }

  finish(): void {
    this.close('ended');
  }

  fail(err: Error): void {
    this.close(err);
  }

  private close(outcome: 'ended' | Error): void {
    if (this.destroyed || this.outcome !== undefined) return;
    this.outcome = outcome;
    if (!this.sink) return;
    if (outcome === 'ended') this.sink.end();
    else this.sink.error(outcome);
  }
}
