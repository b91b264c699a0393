import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The token a client presented: `Authorization: Bearer <t>` or `x-api-key: <t>`. */
export function presentedToken(req: IncomingMessage): string | null {
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (m) return m[1]!.trim();
  }
  const key = req.headers['x-api-key'];
  return typeof key === 'string' && key.trim() ? key.trim() : null;
}

/** 'missing' | 'invalid' | 'ok', compared in constant time. */
export function checkClientToken(req: IncomingMessage, expected: string): 'missing' | 'invalid' | 'ok' {
  const given = presentedToken(req);
  if (given === null) return 'missing';
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b) ? 'ok' : 'invalid';
}
