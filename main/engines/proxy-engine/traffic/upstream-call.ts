import http from 'node:http';
import https from 'node:https';
import type { Hangup } from './hangup.js';
import type { UpstreamEndpoint } from './upstream-endpoint.js';

/**
 * Keep-alive pools: reusing upstream connections is most of the proxy's latency budget. LIFO
 * (Node's default, spelled out) keeps the busiest sockets warm and lets idle ones expire.
 */
const agentOptions = { keepAlive: true, maxSockets: 256, keepAliveMsecs: 30_000, scheduling: 'lifo' } as const;
const httpAgent = new http.Agent(agentOptions);
const httpsAgent = new https.Agent(agentOptions);

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
    readonly status: 502 | 504,
  ) {
    super(message);
  }
}

/** The rejection of a call the client walked away from; nothing is answered for it. */
export class ClientGoneError extends Error {}

/**
 * One POST to an upstream. Resolves with the response as soon as its headers arrive (the body is
 * still streaming); rejects with UpstreamFailure on connect errors and timeouts, or with
 * ClientGoneError when the client went away. Until the caller clears `hangup`, a client that goes
 * destroys this request, and with it the response body still arriving.
 */
export function callUpstream(target: UpstreamTarget, hangup: Hangup, timeouts: Timeouts): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const { endpoint, body } = target;
    target.headers['content-length'] = String(body.length);
    const req = (endpoint.secure ? https : http).request({
      ...endpoint.options,
      method: 'POST',
      headers: target.headers,
      agent: endpoint.secure ? httpsAgent : httpAgent,
    });
    hangup.onGone(() => req.destroy(new ClientGoneError('client went away')));
    let connectTimer: NodeJS.Timeout | undefined;
    const firstByteTimer = setTimeout(() => {
      req.destroy(new UpstreamFailure(`Upstream sent no response within ${timeouts.firstByteMs} ms`, 504));
    }, timeouts.firstByteMs);
    req.on('socket', (socket) => {
      if (!socket.connecting) return; // a reused keep-alive connection, already set up below
      // Nagle's algorithm with delayed ACKs stalls small request/response pairs by up to 40 ms.
      socket.setNoDelay(true);
      connectTimer = setTimeout(() => {
        req.destroy(new UpstreamFailure(`Could not connect to ${endpoint.host} within ${timeouts.connectMs} ms`, 504));
      }, timeouts.connectMs);
      socket.once('connect', () => clearTimeout(connectTimer));
    });
    req.on('response', (res) => {
      clearTimeout(firstByteTimer);
      clearTimeout(connectTimer);
      resolve(res);
    });
    // `on`, not `once`: a socket error after the response can still be emitted here; unhandled it would crash the engine.
    req.on('error', (err) => {
      clearTimeout(firstByteTimer);
      clearTimeout(connectTimer);
      if (hangup.gone || err instanceof UpstreamFailure) reject(err);
      else reject(new UpstreamFailure(`Upstream ${endpoint.host} unreachable: ${err.message}`, 502));
    });
    req.end(body);
  });
}
