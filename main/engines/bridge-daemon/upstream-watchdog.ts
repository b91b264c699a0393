/** The upstream stayed silent for longer than the configured bound. */
export class UpstreamTimeoutError extends Error {
  override name = 'UpstreamTimeoutError';
  constructor(readonly ms: number) {
    super(`Upstream sent nothing for ${ms} ms`);
  }
}

/**
 * Bounds one upstream exchange: aborts it when the upstream stays silent longer than `ms`, before
 * its response headers and between two stream chunks. An upstream that accepts the connection and
 * never answers, or stops mid-stream, would otherwise hold the client (and a socket) forever. The
 * client's own disconnect aborts it as well.
 */
export class UpstreamWatchdog {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private expired = false;
  private readonly onClientAbort: () => void;

  constructor(
    private readonly client: AbortSignal,
    readonly ms: number,
  ) {
    this.signal = this.controller.signal;
    this.onClientAbort = () => this.controller.abort(client.reason);
    client.addEventListener('abort', this.onClientAbort, { once: true });
    if (client.aborted) this.onClientAbort();
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new UpstreamTimeoutError(ms));
    }, ms);
  }

  /** True once the bound was hit (as opposed to the client leaving). */
  get timedOut(): boolean {
    return this.expired;
  }

  /** The upstream showed life (headers, a chunk): the silence count starts over. */
  touch(): void {
    if (!this.expired) this.timer.refresh();
  }

  /** The exchange is over, one way or another. */
  done(): void {
    clearTimeout(this.timer);
    this.client.removeEventListener('abort', this.onClientAbort);
  }
}
