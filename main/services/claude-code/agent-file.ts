import { isUtf8 } from 'node:buffer';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { FileChangedError, writeFileAtomic } from '../../infra/atomic-write.js';
import { FileTooLargeError, READ_LIMITS, readBounded } from '../../infra/bounded-read.js';
import { errorMessage, isNotFound, toMtime } from '../../infra/file-stat.js';
import { NotRegularFileError, openRegularFile } from '../../infra/foreign-file.js';
import { isRecord } from '../../infra/json-checks.js';
import { TOO_DEEP, jsonTooDeep } from '../../infra/json-depth.js';
import { readFileSettled, readTimed, type SettleOptions, type TimedRead } from '../../infra/settled-read.js';
import { ClaudeCodeError } from './errors.js';

/** `{agent_dir}/settings.json` as read: its bytes and what identifies this version of it. */
export interface AgentFile {
  bytes: Buffer;
  mode: number;
  mtime: number;
  /** inode, size, mtime and ctime in nanoseconds: any save in between changes at least one. */
  stamp: string;
}

/**
 * Reads the agent's settings file the way the app reads files it does not own: non-blocking
 * (a FIFO there must not hang a thread), regular files only, bounded as the app's own settings
 * files. A link is followed (dotfile managers link it). Null when there is no file. Claude Code
 * and editors may rewrite it in place: bytes that are not a JSON object are read again while the
 * file looks mid-write (settled-read.ts), so a read between their truncate and write is not
 * reported as a broken file.
 */
export function readAgentFile(file: string, settle: SettleOptions = {}): Promise<AgentFile | null> {
  return readFileSettled(async () => {
    const read = await readAgentFileOnce(file);
    return read === null ? { value: null, read, whole: true } : { value: read.agentFile, read, whole: isJsonObject(read.bytes) };
  }, settle);
}

async function readAgentFileOnce(file: string): Promise<(TimedRead & { agentFile: AgentFile }) | null> {
  let handle: fs.FileHandle;
  try {
    handle = await openRegularFile(file);
  } catch (err) {
    if (isNotFound(err)) return null;
    if (err instanceof NotRegularFileError) throw new ClaudeCodeError('unreadable', `${file} is not a regular file (a FIFO, device or directory); Switchboard only reads and replaces a regular file there`);
    throw new ClaudeCodeError('unreadable', `${file}: ${errorMessage(err)}`);
  }
  try {
    // The bigint stat names this version; readTimed compares plain stats of the handle and the path.
    const st = await handle.stat({ bigint: true });
    const read = await readTimed(handle, file, READ_LIMITS.settings);
    return { ...read, agentFile: { bytes: read.bytes, mode: Number(st.mode & 0o777n), mtime: toMtime(Number(st.mtimeMs)), stamp: stampOf(st) } };
  } catch (err) {
    if (err instanceof FileTooLargeError) throw new ClaudeCodeError('too-large', err.message);
    throw err;
  } finally {
    await handle.close();
  }
}

/**
 * Whether the bytes parse as parseAgentSettings needs. Too deep counts as settled (parsing will
 * say why): a torn write is never too deep, since a prefix nests no deeper than the file.
 */
function isJsonObject(bytes: Buffer): boolean {
  if (jsonTooDeep(bytes)) return true;
  try {
    return isRecord(JSON.parse(bytes.toString('utf8')));
  } catch {
    return false;
  }
}

/**
 * The settings object. Refused (422, the file is never rewritten) when Switchboard could not
 * write it back faithfully: bytes that are not UTF-8 (they would come back as U+FFFD), nesting
 * deeper than every JSON the app reads, text that is not a JSON object, an `env` that is no object.
 */
export function parseAgentSettings(bytes: Buffer, file: string): Record<string, unknown> {
  if (!isUtf8(bytes)) throw new ClaudeCodeError('unreadable', `${file} is not valid UTF-8 (bytes of another encoding, such as Latin-1); Switchboard does not rewrite it, since those bytes would be lost`);
  if (jsonTooDeep(bytes)) throw new ClaudeCodeError('invalid-json', `${file}: ${TOO_DEEP}`);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new ClaudeCodeError('invalid-json', `${file}: ${errorMessage(err)}`);
  }
  if (!isRecord(value)) throw new ClaudeCodeError('invalid-json', `${file}: the top level must be a JSON object`);
  if (value.env !== undefined && !isRecord(value.env)) throw new ClaudeCodeError('invalid-json', `${file}: "env" must be an object`);
  return value;
}

/**
 * Replaces the file with `content` (or removes it, for null) only if it is still the version
 * `read` came from: checked right before the rename (`beforeReplace` runs just before that check). False when it changed meanwhile (someone
 * saved it): nothing was replaced, and the caller reads it again and merges anew.
 */
export async function replaceIfUnchanged(file: string, read: AgentFile | null, content: string | Buffer | null, mode: number, beforeReplace: () => Promise<void>): Promise<boolean> {
  const target = await linkTarget(file);
  const expected = read?.stamp ?? null;
  const unchanged = async () => (await currentStamp(target)) === expected;
  // The backup is made once the replacement is ready and the file is still as read; the last
  // check is synchronous, right before a synchronous rename, so the window between them is two
  // system calls, with no event-loop turn in between.
  const ready = async () => (await unchanged()) && (await beforeReplace(), await unchanged());
  const stillSameSync = () => currentStampSync(target) === expected;
  if (content === null) {
    if (!(await ready()) || !stillSameSync()) return false;
    fsSync.rmSync(target, { force: true });
    return true;
  }
  try {
    await writeFileAtomic(target, content, { mode, beforeRename: ready, stillSameSync });
    return true;
  } catch (err) {
    if (err instanceof FileChangedError) return false;
    throw err;
  }
}

/** The file's mtime as the API reports it, or null when it is gone. */
export async function mtimeOf(file: string): Promise<number | null> {
  try {
    return toMtime((await fs.stat(file)).mtimeMs);
  } catch {
    return null;
  }
}

/**
 * Where a write of the agent's settings.json goes: through a symlink to its target (dotfile
 * managers such as stow link it into a repository; an atomic rename over the link would cut it
 * off), else the path itself.
 */
export async function linkTarget(file: string): Promise<string> {
  try {
    return await fs.realpath(file);
  } catch {
    return file; // not there yet, or a dangling link: written in place
  }
}

/** The temp files a write of `file` leaves if it is killed: where they are and the name they start with. */
export async function tempNamesOf(file: string): Promise<{ dir: string; name: string }> {
  const target = await linkTarget(file);
  return { dir: path.dirname(target), name: path.basename(target) };
}

async function currentStamp(file: string): Promise<string | null> {
  try {
    return stampOf(await fs.stat(file, { bigint: true }));
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

function currentStampSync(file: string): string | null {
  const st = fsSync.statSync(file, { bigint: true, throwIfNoEntry: false });
  return st ? stampOf(st) : null;
}

function stampOf(st: { ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint }): string {
  return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}
