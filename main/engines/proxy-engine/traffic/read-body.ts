import type http from 'node:http';

/** Anthropic's own limit for a Messages request; images make Claude Code requests large. */
export const MAX_CLIENT_BODY = 32 * 1024 * 1024;

export class BodyTooLargeError extends Error {}

/** Reads a whole body, refusing more than `limit` bytes (checked on Content-Length and while reading). */
export function readBody(stream: http.IncomingMessage, limit = MAX_CLIENT_BODY): Promise<Buffer> {
  const declared = Number(stream.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    stream.resume();
    return Promise.reject(new BodyTooLargeError(`Request body too large (limit ${limit} bytes)`));
  }
  return readLimited(stream, limit);
}

/** Collects a readable into one Buffer; rejects with BodyTooLargeError past `limit`. */
export function readLimited(stream: NodeJS.ReadableStream & { destroy?: () => void }, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stream.removeAllListeners('data');
        stream.resume();
        reject(new BodyTooLargeError(`Body too large (limit ${limit} bytes)`));
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => {
      ended = true;
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
    stream.on('error', reject);
    // 'close' follows every 'end': build the Error (a stack capture) only when it means something.
    stream.on('close', () => {
      if (!ended) reject(new Error('stream closed before its end'));
    });
  });
}
