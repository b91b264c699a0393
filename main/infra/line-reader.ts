import type fs from 'node:fs/promises';

const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * Calls `onLine` for each line of the bytes `from`..`to` of an open file (without its `\n` or
 * `\r\n`), in memory bounded by `maxLineBytes`: a longer line is handed over cut to its first
 * `maxLineBytes` bytes (`cut` true) and the rest of it is skipped unread into memory. Starting
 * mid-file, `skipFirst` drops the partial line the range begins in. Unlike node:readline, a line
 * of any length (a 600 MiB log line) never becomes one string.
 */
export async function forEachLine(
  handle: fs.FileHandle,
  range: { from: number; to: number; skipFirst?: boolean },
  maxLineBytes: number,
  onLine: (line: string, cut: boolean) => void,
): Promise<void> {
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let parts: Buffer[] = [];
  let kept = 0;
  let cut = false;
  let skipping = range.skipFirst === true && range.from > 0;
  const emit = () => {
    let line = Buffer.concat(parts, kept);
    if (!cut && line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, -1);
    if (!skipping) onLine(line.toString('utf8'), cut);
    skipping = false;
    parts = [];
    kept = 0;
    cut = false;
  };
  const keep = (bytes: Buffer) => {
    if (skipping) return;
    const room = maxLineBytes - kept;
    if (bytes.length > room) cut = true;
    const piece = bytes.subarray(0, Math.max(0, Math.min(room, bytes.length)));
    if (piece.length === 0) return;
    // Copied: the chunk buffer is reused by the next read.
    parts.push(Buffer.from(piece));
    kept += piece.length;
  };
  let pos = range.from;
  while (pos < range.to) {
    const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK_BYTES, range.to - pos), pos);
    if (bytesRead === 0) break;
    pos += bytesRead;
    const view = chunk.subarray(0, bytesRead);
    let start = 0;
    for (let nl = view.indexOf(NEWLINE); nl !== -1; nl = view.indexOf(NEWLINE, start)) {
      keep(view.subarray(start, nl));
      emit();
      start = nl + 1;
    }
    keep(view.subarray(start));
  }
  if (kept > 0 || cut) emit();
}
