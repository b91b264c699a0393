import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
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
      return await fs.readFile(file, 'utf8');
    } catch (err) {
      if (isNotFound(err)) throw new ProxyError('log-not-found');
      throw err;
    }
  }

  private async describe(name: string): Promise<ErrorLogFile | null> {
    const absolutePath = path.join(this.logsDir, name);
    try {
      const stat = await fs.lstat(absolutePath);
      if (!stat.isFile()) return null;
      return { name, size: stat.size, mtime: toMtime(stat.mtimeMs), absolutePath, ...(await scanFile(absolutePath)) };
    } catch (err) {
      // Rotated away between readdir and stat: simply not listed.
      if (isNotFound(err)) return null;
      throw err;
    }
  }
}

async function scanFile(file: string): Promise<ErrorLogFacts> {
  const scanner = new ErrorLogScanner();
  const lines = readline.createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) scanner.push(line);
  return scanner.result();
}
