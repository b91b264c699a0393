import path from 'node:path';
import type { RequestLogEntry } from '../../../engines/proxy-engine/traffic/request-entry.js';
import { REQUEST_LOG_FILE, REQUEST_LOG_ROTATED } from '../../../engines/proxy-engine/traffic/request-log.js';
import { isNotFound } from '../../../infra/file-stat.js';
import { readOwnText } from '../../../infra/no-follow.js';

const MAX_HISTORY_FILE = 16 << 20;

/**
 * The request log's history on disk (`proxy/logs/requests.jsonl` and its one rotated generation),
 * read when the engine is not running or its ring no longer reaches back far enough. Both files
 * are capped by the engine (8 MiB each), so a read is bounded. Lines that do not parse (a line cut
 * by a crash) are skipped.
 */
export async function readRequestHistory(logsDir: string): Promise<RequestLogEntry[]> {
  const older = await readLines(path.join(logsDir, REQUEST_LOG_ROTATED));
  const newer = await readLines(path.join(logsDir, REQUEST_LOG_FILE));
  const entries: RequestLogEntry[] = [];
  for (const line of [...older, ...newer]) {
    const entry = parseEntry(line);
    if (entry) entries.push(entry);
  }
  // Newest first, in the order requests finished (as the engine's ring and the live events are).
  return entries.reverse();
}

async function readLines(file: string): Promise<string[]> {
  try {
    // The app's own file: not through a link, and bounded (the engine rotates at 8 MiB).
    return (await readOwnText(file, MAX_HISTORY_FILE)).text.split('\n');
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
}

function parseEntry(line: string): RequestLogEntry | null {
  if (line.length < 2) return null;
  try {
    const value = JSON.parse(line) as Partial<RequestLogEntry> | null;
    return value && typeof value.id === 'string' && typeof value.time === 'number' && typeof value.status === 'number' ? (value as RequestLogEntry) : null;
  } catch {
    return null;
  }
}
