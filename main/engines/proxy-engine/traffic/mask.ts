import type http from 'node:http';
import { isSensitiveKey, isSensitiveValue, maskForLog, maskHeaderValue } from '../../../infra/secret-rule.js';

/** A header value as it may appear in a log (decisions §2, the one rule in infra/secret-rule.ts). */
export function maskHeader(name: string, value: string): string {
  return maskHeaderValue(name, value);
}

/** Header lines `name: value`, masked, in the order the client sent them. */
export function maskedHeaderLines(headers: http.IncomingHttpHeaders | Record<string, string>): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [String(value)]) lines.push(`${name}: ${maskHeader(name, v)}`);
  }
  return lines;
}

/**
 * Query values named like secrets (`?key=`, `?auth_token=`) or holding a URL with a password are
 * masked in the logged URL, and so is the password of a whole URL's userinfo (`https://u:p@host`).
 */
export function maskUrl(url: string): string {
  const pathAndQuery = url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@?#:]*):[^/@?#]*@/i, '$1:********@');
  const q = pathAndQuery.indexOf('?');
  if (q === -1) return pathAndQuery;
  const params = new URLSearchParams(pathAndQuery.slice(q + 1));
  for (const [name, value] of [...params]) {
    if (isSensitiveKey(name) || isSensitiveValue(value)) params.set(name, maskForLog(value));
  }
  return `${pathAndQuery.slice(0, q)}?${params.toString()}`;
}
