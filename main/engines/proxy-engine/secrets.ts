import type http from 'node:http';

/**
 * Compares secrets in constant time for a given expected secret: every character of `expected`
 * is compared whatever `given` holds, with no early exit (a length that differs only flips the
 * result), no native call and no allocation. Hashing both first, as this did before, cost a
 * native call and a buffer on every proxied request (issue 19 point 6).
 */
export function secretEquals(given: string, expected: string): boolean {
  const n = given.length;
  let diff = n ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ (n === 0 ? 0xffff : given.charCodeAt(i % n));
  return diff === 0;
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
