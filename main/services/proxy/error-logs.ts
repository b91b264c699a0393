import fs from 'node:fs/promises';
import path from 'node:path';
import { FileTooLargeError, READ_LIMITS, readTextBounded } from '../../infra/bounded-read.js';
import { forEachLine } from '../../infra/line-reader.js';
import { isNotFound, toMtime } from '../../infra/file-stat.js';
import { isSafeFileName, resolveInside } from '../../infra/safe-path.js';
import { ErrorLogScanner, type ErrorLogFacts } from './error-log-parse.js';
import { ProxyError } from './errors.js';

export interface ErrorLogFile extends ErrorLogFacts {
  name: string;
  size: number;
  mtime: number;
  absolutePath: string;
}

const LOG_NAME = /^error-[^/\\\0]+\.log$/;

export function isErrorLogName(name: string): boolean {
  return LOG_NAME.test(name) && isSafeFileName(name);
}

/**
 * proxy/logs/error-*.log, written by the engine (or the external binary) and read here whether
 * or not the proxy runs. Only regular files count: a symlink planted in the directory is never
 * followed.
 */
export class ErrorLogs {
  constructor(private readonly logsDir: string) {}

  /** Newest first (by mtime, then name). */
  async list(): Promise<ErrorLogFile[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.logsDir);
    } catch (err) {
      if (isNotFound(err)) return [];
      throw err;
    }
    const files = await Promise.all(names.filter(isErrorLogName).map((name) => this.describe(name)));
    return files
      .filter((f): f is ErrorLogFile => f !== null)
      .sort((a, b) => b.mtime - a.mtime || (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
  }

  /** The whole log as text; 400 for a bad name, 404 when it is not there. */
  async read(name: string): Promise<string> {
    if (!isErrorLogName(name)) throw new ProxyError('invalid-log-name');
    const file = await resolveInside(this.logsDir, name);
    if (!file) throw new ProxyError('log-not-found');
    try {
      const stat = await fs.lstat(file);
      if (!stat.isFile()) throw new ProxyError('log-not-found');
      return await readTextBounded(file, READ_LIMITS.errorLogText);
    } catch (err) {
      if (isNotFound(err)) throw new ProxyError('log-not-found');
      if (err instanceof FileTooLargeError) throw new ProxyError('file-too-large', `${err.message}: open ${file} in an editor`);
      throw err;
    }
  }

  private async describe(name: string): Promise<ErrorLogFile | null> {
    const absolutePath = path.join(this.logsDir, name);
    try {
      const stat = await fs.lstat(absolutePath);
      if (!stat.isFile()) return null;
      return { name, size: stat.size, mtime: toMtime(stat.mtimeMs), absolutePath, ...(await scanFile(absolutePath, stat.size)) };
    } catch (err) {
      // Rotated away between readdir and stat: simply not listed.
      if (isNotFound(err)) return null;
      throw err;
    }
  }
}

/** What the listing reads of a log: its head (the request) and its tail (the last response). */
const SCAN_HEAD_BYTES = 4 * 1024 * 1024;
const SCAN_TAIL_BYTES = 1024 * 1024;
/** Longer lines are cut: the scanner keeps at most 1 MiB of a body anyway. */
const SCAN_LINE_BYTES = 1024 * 1024;

/**
 * The listing's facts of one log, reading at most 5 MiB of it whatever its size: the model is in
 * the request body at the start, the status in the last response section at the end.
 */
async function scanFile(file: string, size: number): Promise<ErrorLogFacts> {
  const handle = await fs.open(file, 'r');
  try {
    const head = new ErrorLogScanner();
    const push = (line: string) => head.push(line);
    if (size <= SCAN_HEAD_BYTES + SCAN_TAIL_BYTES) {
      await forEachLine(handle, { from: 0, to: size }, SCAN_LINE_BYTES, push);
      return head.result();
    }
    await forEachLine(handle, { from: 0, to: SCAN_HEAD_BYTES }, SCAN_LINE_BYTES, push);
    const tail = new ErrorLogScanner();
    await forEachLine(handle, { from: size - SCAN_TAIL_BYTES, to: size, skipFirst: true }, SCAN_LINE_BYTES, (line) => tail.push(line));
    const first = head.result();
    return { model: first.model, statusCode: tail.result().statusCode ?? first.statusCode };
  } finally {
    await handle.close();
  }
}
