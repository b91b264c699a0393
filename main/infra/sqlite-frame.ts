/**
 * Rows from `sqlite3 -quote` (docs/usage.md, "SQLite stores"): each value printed as an SQL
 * literal — NULL, a number, 'text' with each quote doubled, X'hex' — so its type needs no more
 * columns, and a text is delimited by its quotes whatever bytes it holds (newlines, commas,
 * 0x1E/0x1F, invalid UTF-8): no byte of a value can end it early. A page that is not such rows, a
 * comma between values and a newline after each row, is a `SqliteFrameError` (a shell that writes
 * lines as CR LF, or a newer shell's `unistr(…)` for a text with control characters), and the
 * caller reads it another way.
 *
 * The values come out as `sqlite3 -json` gives them: text as a string (UTF-8, an invalid byte as
 * U+FFFD; cut at a NUL byte, as the shell prints a text up to one in both modes), INTEGER and REAL
 * as numbers (the shell prints a REAL with 20 digits in both modes, so the same double; ±Inf as
 * ±Infinity, -json's ±1e999), NULL as null, a BLOB as its bytes read as UTF-8 text.
 */

/** One column of a select list: its SQL and the name its value goes under. */
export interface FramedColumn {
  expr: string;
  name: string;
}

/** The page is not rows of literals as this reader knows them (another sqlite3's output rules): read it another way. */
export class SqliteFrameError extends Error {}

/**
 * Buffer's own decoders, without `toString`'s argument handling (a large part of the decoding in a
 * profile of opencode.db's pages); undocumented, but on Buffer.prototype in every Node the app runs on.
 */
interface Slices {
  utf8Slice(start: number, end: number): string;
  latin1Slice(start: number, end: number): string;
}

const QUOTE = 0x27;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Splits a select list (`rowid AS _rowid, CAST(id AS TEXT) AS id, data`) into its columns: commas
 * inside parentheses or quotes do not split. A column needs a name: an alias or a bare column.
 */
export function framedColumns(select: string): FramedColumn[] {
  const items: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < select.length; i++) {
    const c = select[i]!;
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      items.push(select.slice(start, i));
      start = i + 1;
    }
  }
  items.push(select.slice(start));
  return items.map((item) => {
    const expr = item.trim();
    const alias = /\s+AS\s+"?([A-Za-z_][A-Za-z0-9_]*)"?$/i.exec(expr);
    if (alias !== null) return { expr: expr.slice(0, alias.index), name: alias[1]! };
    if (NAME.test(expr)) return { expr, name: expr };
    throw new Error(`sqlitePages: the column \`${expr}\` needs a name (… AS name)`);
  });
}

/** The rows of one page of `sqlite3 -quote` output of a select list of `columns`. */
export function decodeFramedRows(out: Buffer, columns: readonly FramedColumn[]): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  const last = columns.length - 1;
  const cursor = { at: 0 };
  while (cursor.at < out.length) {
    const row: Record<string, unknown> = {};
    for (let c = 0; c <= last; c++) {
      row[columns[c]!.name] = readValue(out, cursor);
      expectByte(out, cursor, c === last ? NEWLINE : COMMA);
    }
    rows.push(row);
  }
  return rows;
}

function expectByte(out: Buffer, cursor: { at: number }, byte: number): void {
  if (out[cursor.at] !== byte) throw new SqliteFrameError(`expected ${JSON.stringify(String.fromCharCode(byte))} at byte ${cursor.at}`);
  cursor.at++;
}

function isNull(out: Buffer, at: number): boolean {
  return out[at] === 0x4e && out[at + 1] === 0x55 && out[at + 2] === 0x4c && out[at + 3] === 0x4c; // NULL
}

/** One literal; throws on anything else. */
function readValue(out: Buffer, cursor: { at: number }): unknown {
  const start = cursor.at;
  if (out[start] === QUOTE) return readText(out, cursor);
  if (isNull(out, start)) {
    cursor.at += 4;
    return null;
  }
  if (out[start] === 0x58 && out[start + 1] === QUOTE) return readBlob(out, cursor); // X'…'
  // An integer (what most number columns hold): its digits read here, up to 15 of them exactly.
  let end = out[start] === 0x2d ? start + 1 : start;
  let n = 0;
  for (let d = out[end]; d !== undefined && d >= 0x30 && d <= 0x39; d = out[++end]) n = n * 10 + (d - 0x30);
  const digitsEnd = end;
  for (let b = out[end]; b !== undefined && b !== COMMA && b !== NEWLINE; b = out[++end]);
  cursor.at = end;
  const integer = digitsEnd === end && digitsEnd > start + (out[start] === 0x2d ? 1 : 0);
  if (integer && end - start <= 15) return out[start] === 0x2d ? -n : n;
  const text = (out as Buffer & Slices).latin1Slice(start, end);
  return integer ? Number(text) : realOf(text, start);
}

function readText(out: Buffer, cursor: { at: number }): string {
  const start = cursor.at + 1;
  let doubled = 0;
  let end = out.indexOf(QUOTE, start);
  while (end >= 0 && out[end + 1] === QUOTE) {
    doubled++;
    end = out.indexOf(QUOTE, end + 2);
  }
  if (end < 0) throw new SqliteFrameError(`a text from byte ${start} has no end`);
  cursor.at = end + 1;
  const text = (out as Buffer & Slices).utf8Slice(start, end);
  return doubled === 0 ? text : text.replaceAll("''", "'");
}

function readBlob(out: Buffer, cursor: { at: number }): string {
  const start = cursor.at + 2;
  const end = out.indexOf(QUOTE, start);
  const hex = end < 0 ? '' : out.toString('latin1', start, end);
  if (end < 0 || hex.length % 2 !== 0 || !/^[0-9A-Fa-f]*$/.test(hex)) throw new SqliteFrameError(`a blob at byte ${start} is not hex`);
  cursor.at = end + 1;
  return Buffer.from(hex, 'hex').toString('utf8');
}

/** A printed REAL as JSON.parse reads -json's form of it (the same digits: the same double). */
function realOf(text: string, at: number): number {
  if (/^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(text)) return Number(text);
  // The shell prints an infinite REAL as Inf in this mode; -json writes 1e999, which JSON.parse reads as Infinity.
  if (text === 'Inf' || text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  throw new SqliteFrameError(`a value this reader does not know at byte ${at}: ${JSON.stringify(text.slice(0, 40))}`);
}
