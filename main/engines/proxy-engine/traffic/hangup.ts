/**
 * Whether the client of one request is still there, and what to stop when it goes. It stands in
 * for an AbortController on the hot path: Node's builds an EventTarget per request and, handed to
 * an HTTP client, a stream watcher on top, a measurable share of a proxied request's CPU. One slot
 * is enough: at any moment a request has at most one upstream call in flight, and destroying that
 * call's socket also ends the response body being relayed or read.
 */
export class Hangup {
  gone = false;
  private stop: (() => void) | undefined;

  /** Sets what to run if the client goes (undefined clears it); runs at once if it already went. */
  onGone(stop: (() => void) | undefined): void {
    this.stop = stop;
    if (this.gone && stop) {
      this.stop = undefined;
      stop();
    }
  }

  /** The client went away: run the stop action, once. */
  fire(): void {
    if (this.gone) return;
    this.gone = true;
    const stop = this.stop;
    this.stop = undefined;
    stop?.();
  }
}
