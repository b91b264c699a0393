import type http from 'node:http';

/** `sk-ant-api03-abcdef...` → `sk-a...wxyz`: enough to tell keys apart, never enough to use one. */
export function maskSecret(value: string): string {
  return value.length > 12 ? `${value.slice(0, 4)}...${value.slice(-4)}` : '****';
}

const SECRET_NAME = /api-key|apikey|token|secret|cookie|password/i;

/** A header value as it may appear in a log: credentials masked, the auth scheme kept. */
export function maskHeader(name: string, value: string): string {
  if (/authorization/i.test(name)) {
    const match = /^(\S+)\s+(.+)$/.exec(value);
    return match ? `${match[1]} ${maskSecret(match[2]!)}` : maskSecret(value);
  }
  return SECRET_NAME.test(name) ? maskSecret(value) : value;
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

/** Query values that carry credentials (`?key=`, `?auth_token=`) are masked in the logged URL. */
export function maskUrl(pathAndQuery: string): string {
  const q = pathAndQuery.indexOf('?');
  if (q === -1) return pathAndQuery;
  const params = new URLSearchParams(pathAndQuery.slice(q + 1));
  for (const [name, value] of [...params]) if (SECRET_NAME.test(name) || name === 'key') params.set(name, maskSecret(value));
  return `${pathAndQuery.slice(0, q)}?${params.toString()}`;
}
