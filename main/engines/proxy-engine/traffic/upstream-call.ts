import http from 'node:http';
import https from 'node:https';

/** Keep-alive pools: reusing upstream connections is most of the proxy's latency budget. */
const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 30_000 });
const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 30_000 });

export interface UpstreamTarget {
  url: URL;
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

/**
 * One POST to an upstream. Resolves with the response as soon as its headers arrive (the body is
 * still streaming); rejects with UpstreamFailure on connect errors and timeouts, or with the
 * signal's AbortError when the client went away.
 */
export function callUpstream(target: UpstreamTarget, signal: AbortSignal, timeouts: Timeouts): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const secure = target.url.protocol === 'https:';
    const req = (secure ? https : http).request(target.url, {
      method: 'POST',
      headers: { ...target.headers, 'content-length': String(target.body.length) },
      agent: secure ? httpsAgent : httpAgent,
      signal,
    });
    let connectTimer: NodeJS.Timeout | undefined;
    const firstByteTimer = setTimeout(() => {
      req.destroy(new UpstreamFailure(`Upstream sent no response within ${timeouts.firstByteMs} ms`, 504));
    }, timeouts.firstByteMs);
    const clear = () => {
      clearTimeout(firstByteTimer);
      if (connectTimer) clearTimeout(connectTimer);
    };
    req.once('socket', (socket) => {
      // Nagle's algorithm with delayed ACKs stalls small request/response pairs by up to 40 ms.
      socket.setNoDelay(true);
      if (!socket.connecting) return; // a reused keep-alive connection
      connectTimer = setTimeout(() => {
        req.destroy(new UpstreamFailure(`Could not connect to ${target.url.host} within ${timeouts.connectMs} ms`, 504));
      }, timeouts.connectMs);
      socket.once('connect', () => clearTimeout(connectTimer));
    });
    req.once('response', (res) => {
      clear();
      resolve(res);
    });
    // `on`, not `once`: a socket error after the response can still be emitted here; unhandled it would crash the engine.
    req.on('error', (err) => {
      clear();
      if (signal.aborted || err instanceof UpstreamFailure) reject(err);
      else reject(new UpstreamFailure(`Upstream ${target.url.host} unreachable: ${err.message}`, 502));
    });
    req.end(target.body);
  });
}
