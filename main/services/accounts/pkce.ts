import { createHash, randomBytes } from 'node:crypto';

/** RFC 7636 S256: a 43-character verifier from 32 random bytes, and its challenge. */
export function createPkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: challengeOf(verifier) };
}

export function challengeOf(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** An unguessable `state` for one sign-in (128 bits). */
export function createState(): string {
  return randomBytes(16).toString('hex');
}
