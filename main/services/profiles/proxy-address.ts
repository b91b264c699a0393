import { DEFAULT_PROXY_HOST, DEFAULT_PROXY_PORT, parseProxyConfig } from '../../engines/proxy-engine/config.js';
import { readTextIfExists } from '../../infra/file-stat.js';

/** Where the local proxy listens, from proxy/config.yaml `server`. */
export interface ProxyAddress {
  host: string;
  port: number;
}

export const DEFAULT_PROXY_ADDRESS: ProxyAddress = { host: DEFAULT_PROXY_HOST, port: DEFAULT_PROXY_PORT };

/** Names a local client may use for a proxy listening on loopback (or on every interface). */
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1', '0.0.0.0']);

/** The address in proxy/config.yaml; the defaults when the file does not exist. Throws ProxyConfigError when it cannot be parsed. */
export async function readProxyAddress(file: string): Promise<ProxyAddress> {
  const text = await readTextIfExists(file);
  return text === null ? DEFAULT_PROXY_ADDRESS : addressOfText(text, file);
}

export function addressOfText(text: string, source = 'config.yaml'): ProxyAddress {
  const { server } = parseProxyConfig(text, source);
  return { host: server.host, port: server.port };
}

export function sameAddress(a: ProxyAddress, b: ProxyAddress): boolean {
  return a.port === b.port && normalHost(a.host) === normalHost(b.host);
}

/** The base URL a profile uses to reach the proxy: loopback by IP, as the proxy binds it. */
export function proxyBaseUrl(address: ProxyAddress): string {
  const host = LOCAL_HOSTS.has(normalHost(address.host)) ? '127.0.0.1' : address.host;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${address.port}`;
}

/** Whether `baseUrl` reaches the proxy at `address` (any loopback spelling, the configured host). */
export function pointsAtProxy(baseUrl: string | null, address: ProxyAddress): boolean {
  const url = parseUrl(baseUrl);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  if (port !== address.port) return false;
  const host = normalHost(url.hostname);
  const proxyHost = normalHost(address.host);
  return host === proxyHost || (LOCAL_HOSTS.has(host) && LOCAL_HOSTS.has(proxyHost));
}

/** `host[:port]` of a base URL, without scheme, path or credentials; null when it is no URL. */
export function hostOf(baseUrl: string | null): string | null {
  return parseUrl(baseUrl)?.host || null;
}

/** A URL, also when the scheme was left out (`api.example.com/v1`). */
function parseUrl(value: string | null): URL | null {
  if (!value) return null;
  const text = value.trim();
  for (const candidate of [text, `http://${text}`]) {
    try {
      const url = new URL(candidate);
      if (url.hostname) return url;
    } catch {
      // try the next form
    }
  }
  return null;
}

function normalHost(host: string): string {
  return host.toLowerCase();
}
