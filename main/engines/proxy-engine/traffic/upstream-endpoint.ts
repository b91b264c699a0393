import { urlToHttpOptions } from 'node:url';
import type { RoutedUpstream } from '../providers/account-upstream.js';

/** Where one upstream call goes, parsed once: WHATWG URL parsing per request was a visible cost. */
export interface UpstreamEndpoint {
  /** `host[:port]`, for messages. */
  host: string;
  /** The full URL, for error logs. */
  href: string;
  /** `scheme://host[:port]`: the connection pool the call goes through. */
  origin: string;
  /** Path and query. */
  path: string;
  /** A `Basic` Authorization value, when the base URL carries `user:password@`. */
  basicAuth?: string;
}

/**
 * Endpoints per upstream, keyed by path + query. Upstream objects live as long as the loaded
 * config; the query comes from the client (`?beta=true` in practice), so each map is bounded.
 */
const cache = new WeakMap<RoutedUpstream, Map<string, UpstreamEndpoint>>();
const MAX_PER_UPSTREAM = 32;

/**
 * The upstream URL of a call: OpenAI base URLs carry their version path, Anthropic ones do not
 * (decisions §4). Claude Code's `?beta=true` matters only to an Anthropic upstream.
 */
export function upstreamEndpoint(upstream: RoutedUpstream, path: string, clientSearch: string): UpstreamEndpoint {
  const search = upstream.format === 'anthropic' ? clientSearch : '';
  let byPath = cache.get(upstream);
  if (!byPath) cache.set(upstream, (byPath = new Map()));
  const key = path + search;
  let endpoint = byPath.get(key);
  if (!endpoint) {
    if (byPath.size >= MAX_PER_UPSTREAM) byPath.clear();
    byPath.set(key, (endpoint = endpointFor(upstream.base_url, path, search)));
  }
  return endpoint;
}

/** An endpoint from a base URL that is not an upstream's own (an account's API from its token). */
export function endpointFor(baseUrl: string, path: string, search: string): UpstreamEndpoint {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  if (search) url.search = search;
  const { path: requestPath, auth } = urlToHttpOptions(url);
  const endpoint: UpstreamEndpoint = { host: url.host, href: url.toString(), origin: url.origin, path: requestPath ?? '/' };
  if (auth) endpoint.basicAuth = `Basic ${Buffer.from(auth).toString('base64')}`;
  return endpoint;
}
