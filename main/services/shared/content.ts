import fs from 'node:fs/promises';
import { openRegularFile } from '../../infra/foreign-file.js';
import { isNotFound } from '../../infra/file-stat.js';
import { isPlainRelative, resolveInside } from '../../infra/safe-path.js';
import { realpathOrNull } from './discovery.js';
import { isSharedType, type SharedType } from './types.js';

export const MAX_CONTENT_BYTES = 2 * 1024 * 1024;
/** Decoding rounds checked for hidden traversal (`%252e%252e%252f` needs two). */
const DECODE_ROUNDS = 4;

export type SharedErrorKind = 'invalid-type' | 'invalid-path' | 'not-found' | 'too-large';

/** A refusal the API turns into its documented 4xx (the service layer knows no HTTP). */
export class SharedError extends Error {
  constructor(
    readonly kind: SharedErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export interface SharedContent {
  type: SharedType;
  path: string;
  content: string;
}

/** Reads one item's markdown; every client path is proven to stay inside the type root. */
export async function readSharedContent(rootOf: (type: SharedType) => string, type: unknown, relPath: unknown): Promise<SharedContent> {
  if (!isSharedType(type)) throw new SharedError('invalid-type', 'type must be one of: commands, skills, agents');
  const rel = checkClientPath(relPath);
  const root = rootOf(type);
  if ((await realpathOrNull(root)) === null) throw new SharedError('not-found', `no shared ${type} directory`);
  const full = await resolveInside(root, rel);
  if (full === null) throw new SharedError('invalid-path', `path must stay inside the shared ${type} directory`);
  return { type, path: rel, content: await readLimited(full, rel) };
}

/**
 * Express has decoded the query once; a `%` left over is either part of a real file name or a
 * second encoding layer hiding `../`. Every decoded form must be a plain relative path.
 */
export function checkClientPath(relPath: unknown): string {
  if (typeof relPath !== 'string' || relPath.length === 0) throw new SharedError('invalid-path', 'path is required');
  let current = relPath;
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    if (!isPlainRelative(current)) throw new SharedError('invalid-path', 'path must be relative, without "..", "\\" or NUL');
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      break; // a lone `%` is just a character
    }
    if (decoded === current) break;
    current = decoded;
  }
  if (!relPath.endsWith('.md')) throw new SharedError('invalid-path', 'path must name a markdown (.md) file');
  return relPath;
}

async function readLimited(full: string, rel: string): Promise<string> {
  let stat;
  try {
    stat = await fs.stat(full);
  } catch (err) {
    throw new SharedError('not-found', isNotFound(err) ? `${rel} does not exist` : `${rel} cannot be read`);
  }
  if (!stat.isFile()) throw new SharedError('not-found', `${rel} is not a file`);
  const handle = await openOrNotFound(full, rel);
  try {
    const size = (await handle.stat()).size;
    if (size > MAX_CONTENT_BYTES) {
      throw new SharedError('too-large', `${rel} is ${(size / 1024 / 1024).toFixed(1)} MiB; the limit is 2 MiB`);
    }
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

async function openOrNotFound(full: string, rel: string): Promise<fs.FileHandle> {
  try {
    return await openRegularFile(full); // non-blocking: a FIFO swapped in after the stat must not hang a thread
  } catch {
    throw new SharedError('not-found', `${rel} cannot be read`);
  }
}
