import type { IncomingMessage } from 'node:http';

/** Requests above this size get 413 (decisions §6). */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * A body over the limit is still read (and dropped) up to this many bytes in all before the 413
 * is sent, so a client that writes its whole body before reading (SDKs do) reads the 413 instead
 * of a reset connection (EPIPE). Past it, or after DRAIN_QUIET_MS without a byte, or
 * DRAIN_MAX_MS in all, the 413 goes at once and the connection is closed.
 */
export const DRAIN_MAX_BYTES = 4 * MAX_BODY_BYTES;
export const DRAIN_QUIET_MS = 1_000;
export const DRAIN_MAX_MS = 10_000;

export type BodyResult =
  | { ok: true; body: Buffer }
  /** `drained`: the whole body was read, so closing after the answer cuts nothing the client still sends. */
  | { ok: false; reason: 'too-large'; drained: boolean }
  | { ok: false; reason: 'aborted' };

/**
 * Reads a request body up to `limit` bytes. Past the limit nothing more is buffered: the rest is
 * read and dropped within the drain bounds above, and a declared Content-Length beyond them is
 * refused before anything is read.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES, drainMax = Math.max(DRAIN_MAX_BYTES, limit)): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > drainMax) return Promise.resolve({ ok: false, reason: 'too-large', drained: false });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    let quiet: NodeJS.Timeout | undefined;
    let overall: NodeJS.Timeout | undefined;
    const finish = (result: BodyResult) => {
      if (done) return;
      done = true;
      clearTimeout(quiet);
      clearTimeout(overall);
      req.off('data', onData);
      resolve(result);
    };
    const tooLarge = () => finish({ ok: false, reason: 'too-large', drained: false });
    const draining = () => {
      chunks.length = 0;
      overall ??= setTimeout(tooLarge, DRAIN_MAX_MS);
      clearTimeout(quiet);
      quiet = setTimeout(tooLarge, DRAIN_QUIET_MS);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > drainMax) tooLarge();
      else if (size > limit) draining();
      else chunks.push(chunk);
    };
    // A declared size over the limit: drop from the first byte (and answer even if none comes).
    if (Number.isFinite(declared) && declared > limit) draining();
    req.on('data', onData);
    req.once('end', () => finish(size > limit || declared > limit ? { ok: false, reason: 'too-large', drained: true } : { ok: true, body: Buffer.concat(chunks, size) }));
    req.once('error', () => finish({ ok: false, reason: 'aborted' }));
    req.once('close', () => finish({ ok: false, reason: 'aborted' }));
  });
}
