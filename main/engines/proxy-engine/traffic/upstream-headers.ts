import type http from 'node:http';
import type { ClientFormat } from '../client-errors.js';
import type { Upstream } from '../config.js';

const ANTHROPIC_VERSION = '2023-06-01';

/**
 * Headers for the upstream: its own credential (never the client's proxy key), the JSON content
 * type, and for Anthropic the version and, from Anthropic clients, the beta flags Claude Code
 * relies on (interleaved thinking, 1M context, ...).
 */
export function upstreamHeaders(upstream: Upstream, key: string | undefined, client: ClientFormat, req: http.IncomingMessage, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
  };
  const ua = req.headers['user-agent'];
  if (ua) headers['user-agent'] = ua;
  if (upstream.format === 'anthropic') {
    if (key) headers['x-api-key'] = key;
    const fromClient = client === 'anthropic' ? req.headers['anthropic-version'] : undefined;
    headers['anthropic-version'] = typeof fromClient === 'string' ? fromClient : ANTHROPIC_VERSION;
    const beta = client === 'anthropic' ? req.headers['anthropic-beta'] : undefined;
    if (typeof beta === 'string' && beta) headers['anthropic-beta'] = beta;
  } else if (key) {
    headers.authorization = `Bearer ${key}`;
  }
  return headers;
}

/** Upstream response headers worth handing to the client on a passthrough (ids and rate-limit hints). */
export function forwardedResponseHeaders(upstream: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(upstream)) {
    if (typeof value !== 'string') continue;
    if (name === 'request-id' || name === 'x-request-id' || name === 'retry-after' || name.startsWith('anthropic-ratelimit-') || name.startsWith('x-ratelimit-')) {
      out[name] = value;
    }
  }
  return out;
}
