import { Pool, type Dispatcher } from 'undici';
import type { Hangup } from './hangup.js';
import { closedByUpstream, UpstreamResponse } from './upstream-response.js';
import type { UpstreamEndpoint } from './upstream-endpoint.js';

export interface UpstreamTarget {
  endpoint: UpstreamEndpoint;
  /** Sent as given; `content-length` is added to this same object, so the error log shows it too. */
  headers: Record<string, string>;
  body: Buffer;
}

export interface Timeouts {
  connectMs: number;
  firstByteMs: number;
}

/** Why an attempt produced no HTTP response: the status the client would get for it. */
export class UpstreamFailure extends Error {
  constructor(
    message: string,
    readonly status: 502 | 503 | 504,
    /** The socket error's code (`ECONNREFUSED`, …) when there was one: the CLIProxyAPI forwarder waits out a refusal. */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The rejection of a call the client walked away from; nothing is answered for it. */
export class ClientGoneError extends Error {}

/**
 * Keep-alive pools, one per upstream origin (and connect timeout), through undici's dispatcher:
 * Node's own HTTP client builds a request object, an agent lookup and a readable stream per call:
 * a scratch client sending the bench's request spent 136–170 µs of CPU per request through it and
 * 97–107 µs through a dispatch (issue 19 point 6). Reusing connections is most of the proxy's latency budget; 256 per origin
 * as the http.Agent had. The pools' own header and body timeouts are off: the engine's first-byte
 * and idle limits (seconds from the config, with their own messages) apply instead.
 */
const pools = new Map<string, Pool>();
const CONNECTIONS_PER_ORIGIN = 256;

function poolFor(origin: string, connectMs: number): Pool {
  const key = `${connectMs} ${origin}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new Pool(origin, { connections: CONNECTIONS_PER_ORIGIN, connect: { timeout: connectMs }, headersTimeout: 0, bodyTimeout: 0 });
    pools.set(key, pool);
  }
  return pool;
}

/** Closes every upstream connection (engine shutdown, tests). */
export async function closeUpstreamPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((pool) => pool.destroy()));
}

/**
 * One POST to an upstream. Resolves with the response as soon as its headers arrive (the body is
 * still streaming); rejects with UpstreamFailure on connect errors and timeouts, or with
 * ClientGoneError when the client went away. Until the caller clears `hangup`, a client that goes
 * aborts this request, and with it the response body still arriving.
 */
export function callUpstream(target: UpstreamTarget, hangup: Hangup, timeouts: Timeouts): Promise<UpstreamResponse> {
  return new Promise((resolve, reject) => {
    const { endpoint, body, headers } = target;
    headers['content-length'] = String(body.length);
    if (endpoint.basicAuth && headers.authorization === undefined) headers.authorization = endpoint.basicAuth;
    const call = new UpstreamCall(endpoint, timeouts, resolve, reject);
    hangup.onGone(() => call.abort(new ClientGoneError('client went away')));
    poolFor(endpoint.origin, timeouts.connectMs).dispatch({ origin: endpoint.origin, path: endpoint.path, method: 'POST', headers, body }, call);
  });
}

/** The dispatch handler of one call (undici calls it; exported for its tests): settles the promise once, then feeds the response body. */
export class UpstreamCall implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private response: UpstreamResponse | undefined;
  /** Set when the call is given up before undici handed over its controller. */
  private abandoned: Error | undefined;
  private settled = false;
  private readonly firstByteTimer: NodeJS.Timeout;

  constructor(
    private readonly endpoint: UpstreamEndpoint,
    private readonly timeouts: Timeouts,
    private readonly resolve: (response: UpstreamResponse) => void,
    private readonly reject: (err: Error) => void,
  ) {
    this.firstByteTimer = setTimeout(() => this.abort(new UpstreamFailure(`Upstream sent no response within ${timeouts.firstByteMs} ms`, 504)), timeouts.firstByteMs);
  }

  /** Gives the call up: before the response, the promise rejects with `reason`; after, the body ends with it. */
  abort(reason: Error): void {
    if (this.controller) {
      this.controller.abort(reason);
      return;
    }
    // Still waiting for a connection: undici hands the controller over only once it has one.
    this.abandoned ??= reason;
    this.fail(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.abandoned) controller.abort(this.abandoned);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.firstByteTimer);
    this.response = new UpstreamResponse(statusCode, headers, controller);
    this.resolve(this.response);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.response?.push(chunk);
  }

  onResponseEnd(): void {
    this.response?.finish();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    if (this.response) this.response.fail(err);
    else this.fail(err);
  }

  private fail(err: Error): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.firstByteTimer);
    this.reject(this.describe(err));
  }

  /** What the client is told about a call that got no response. */
  private describe(err: Error): Error {
    if (err instanceof UpstreamFailure || err instanceof ClientGoneError) return err;
    const { host } = this.endpoint;
    if ((err as { code?: string }).code === 'UND_ERR_CONNECT_TIMEOUT') return new UpstreamFailure(`Could not connect to ${host} within ${this.timeouts.connectMs} ms`, 504);
    if (closedByUpstream(err)) return new UpstreamFailure(`Upstream ${host} closed the connection without answering`, 502);
    if (err.name === 'HTTPParserError') return new UpstreamFailure(`Upstream ${host} answered with something that is not HTTP: ${err.message}`, 502);
    return new UpstreamFailure(`Upstream ${host} unreachable: ${err.message}`, 502, (err as { code?: string }).code);
  }
}
