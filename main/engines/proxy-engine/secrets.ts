import { createHash, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';

/** Compares secrets in constant time (hashing first evens out the lengths). */
export function secretEquals(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The credential a client sent: `Authorization: Bearer <key>` (or a bare value), else `headerName`. */
export function presentedKey(req: http.IncomingMessage, headerName: string): string | undefined {
  const auth = req.headers.authorization;
  if (auth) {
    const match = /^Bearer\s+(.+)$/i.exec(auth.trim());
    return match ? match[1]!.trim() : auth.trim();
  }
  const value = req.headers[headerName];
  return Array.isArray(value) ? value[0] : value;
}
