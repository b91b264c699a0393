import { hash, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';

/**
 * Digests of the configured secrets, so each request hashes only what the client sent. The
 * config holds one or two secrets for the process's life; the bound only guards a caller that
 * would pass per-request values as `expected`.
 */
const expectedDigests = new Map<string, Buffer>();
const MAX_CACHED = 16;

/** Compares secrets in constant time (hashing first evens out the lengths). */
export function secretEquals(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), expectedDigest(expected));
}

function expectedDigest(expected: string): Buffer {
  let digest = expectedDigests.get(expected);
  if (!digest) {
    if (expectedDigests.size >= MAX_CACHED) expectedDigests.clear();
    expectedDigests.set(expected, (digest = sha256(expected)));
  }
  return digest;
}

function sha256(value: string): Buffer {
  // One-shot hash: no Hash object per call, which was most of this function's cost.
  return hash('sha256', value, 'buffer');
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
