import path from 'node:path';
import type { RequestLogEntry } from '../../../engines/proxy-engine/traffic/request-entry.js';
import { readLogEntry } from '../../../engines/proxy-engine/traffic/request-entry-check.js';
import { REQUEST_LOG_FILE, REQUEST_LOG_ROTATED } from '../../../engines/proxy-engine/traffic/request-log.js';
import { isNotFound } from '../../../infra/file-stat.js';
import { readOwnTail } from '../../../infra/no-follow.js';

/** The most read of each file: the engine rotates at 8 MiB, so only a file it did not write is bigger. */
export const MAX_HISTORY_FILE = 16 << 20;

export interface RequestHistory {
  /** Newest first. */
  entries: RequestLogEntry[];
  /** Lines that were not an entry (cut by a crash, a field missing or of the wrong kind): skipped, counted. */
  skippedLines: number;
}

/**
 * The request log's history on disk (`proxy/logs/requests.jsonl` and its one rotated generation),
 * read when the engine is not running or its ring no longer reaches back far enough. A file over
 * MAX_HISTORY_FILE is read from its newest part (the line cut at the start of that part is not
 * counted: it was not read). One bad line costs that line, never the whole history (issue 27).
 */
export async function readRequestHistory(logsDir: string, maxFileBytes = MAX_HISTORY_FILE): Promise<RequestHistory> {
  const older = await readLines(path.join(logsDir, REQUEST_LOG_ROTATED), maxFileBytes);
  const newer = await readLines(path.join(logsDir, REQUEST_LOG_FILE), maxFileBytes);
  const entries: RequestLogEntry[] = [];
  let skippedLines = 0;
  for (const line of [...older, ...newer]) {
    if (line.trim() === '') continue;
    const entry = parseEntry(line);
    if (entry) entries.push(entry);
    else skippedLines++;
  }
  // Newest first, in the order requests finished (as the engine's ring and the live events are).
  return { entries: entries.reverse(), skippedLines };
}

async function readLines(file: string, maxBytes: number): Promise<string[]> {
  try {
    // The app's own file: not through a link, and bounded.
    const { text, cut } = await readOwnTail(file, maxBytes);
    const lines = text.split('\n');
    return cut ? lines.slice(1) : lines;
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
}

function parseEntry(line: string): RequestLogEntry | null {
  try {
    return readLogEntry(JSON.parse(line));
  } catch {
    return null;
  }
}
