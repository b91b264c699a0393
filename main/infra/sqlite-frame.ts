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
  FramedPage.frame(out, columns).forEach((row) => rows.push(row));
  return rows;
}

// A value's kind in a frame.
const TEXT = 0;
const TEXT_DOUBLED = 1; // a text with '' in it
const NULL = 2;
const NUMBER = 3;
const BLOB = 4;

/**
 * One page of `sqlite3 -quote` output, framed: where each value sits and what it is, checked
 * whole before any row is made (a page this reader does not know throws SqliteFrameError here, so
 * its caller reads it another way and no row of it was handed out). forEach() then makes the rows
 * one at a time: each row's strings die young instead of a whole page of them (20 000 rows, some
 * MB of text) outliving the scavenges of its decoding.
 */
export class FramedPage {
  private constructor(
    private readonly out: Buffer,
    private readonly columns: readonly FramedColumn[],
    /** Per value: kind, start, end. */
    private readonly values: Int32Array,
    readonly rowCount: number,
  ) {}

  static frame(out: Buffer, columns: readonly FramedColumn[]): FramedPage {
    const last = columns.length - 1;
    const values: number[] = [];
    let at = 0;
    let rows = 0;
    while (at < out.length) {
      for (let c = 0; c <= last; c++) {
        at = frameValue(out, at, values);
        if (out[at] !== (c === last ? NEWLINE : COMMA)) throw new SqliteFrameError(`expected ${JSON.stringify(c === last ? '\n' : ',')} at byte ${at}`);
        at++;
      }
      rows++;
    }
    return new FramedPage(out, columns, Int32Array.from(values), rows);
  }

  /** The value of `column` in row `row`. */
  value(row: number, column: number): unknown {
    const v = (row * this.columns.length + column) * 3;
    return valueOf(this.out, this.values[v]!, this.values[v + 1]!, this.values[v + 2]!);
  }

  forEach(onRow: (row: Record<string, unknown>) => void): void {
    const { columns, rowCount } = this;
    for (let r = 0; r < rowCount; r++) {
      const row: Record<string, unknown> = {};
      for (let c = 0; c < columns.length; c++) row[columns[c]!.name] = this.value(r, c);
      onRow(row);
    }
  }
}

/** Frames the literal at `at` (kind, start, end pushed to `values`); returns where it ends. Throws on anything else. */
function frameValue(out: Buffer, at: number, values: number[]): number {
  if (out[at] === QUOTE) {
    const start = at + 1;
    let doubled = false;
    let end = out.indexOf(QUOTE, start);
    while (end >= 0 && out[end + 1] === QUOTE) {
      doubled = true;
      end = out.indexOf(QUOTE, end + 2);
    }
    if (end < 0) throw new SqliteFrameError(`a text from byte ${start} has no end`);
    values.push(doubled ? TEXT_DOUBLED : TEXT, start, end);
    return end + 1;
  }
  if (isNull(out, at)) {
    values.push(NULL, at, at + 4);
    return at + 4;
  }
  if (out[at] === 0x58 && out[at + 1] === QUOTE) {
    // X'…'
    const start = at + 2;
    const end = out.indexOf(QUOTE, start);
    const hex = end < 0 ? '' : out.toString('latin1', start, end);
    if (end < 0 || hex.length % 2 !== 0 || !/^[0-9A-Fa-f]*$/.test(hex)) throw new SqliteFrameError(`a blob at byte ${start} is not hex`);
    values.push(BLOB, start, end);
    return end + 1;
  }
  let end = at;
  for (let b = out[end]; b !== undefined && b !== COMMA && b !== NEWLINE; b = out[++end]);
  if (!isInteger(out, at, end)) realOf((out as Buffer & Slices).latin1Slice(at, end), at); // throws on what is not a number
  values.push(NUMBER, at, end);
  return end;
}

function isNull(out: Buffer, at: number): boolean {
  return out[at] === 0x4e && out[at + 1] === 0x55 && out[at + 2] === 0x4c && out[at + 3] === 0x4c; // NULL
}

/** An optional minus sign, then one or more digits, up to `end`. */
function isInteger(out: Buffer, start: number, end: number): boolean {
  const from = out[start] === 0x2d ? start + 1 : start;
  if (from >= end) return false;
  for (let i = from; i < end; i++) if (out[i]! < 0x30 || out[i]! > 0x39) return false;
  return true;
}

/** A framed value as `sqlite3 -json` gives it. */
function valueOf(out: Buffer, kind: number, start: number, end: number): unknown {
  switch (kind) {
    case TEXT:
      return (out as Buffer & Slices).utf8Slice(start, end);
    case TEXT_DOUBLED:
      return (out as Buffer & Slices).utf8Slice(start, end).replaceAll("''", "'");
    case NULL:
      return null;
    case BLOB:
      return Buffer.from(out.toString('latin1', start, end), 'hex').toString('utf8');
    default:
      return numberOf(out, start, end);
  }
}

/** A framed number: an integer (what most number columns hold) read here, up to 15 digits exactly. */
function numberOf(out: Buffer, start: number, end: number): number {
  const negative = out[start] === 0x2d;
  if (isInteger(out, start, end) && end - start <= 15) {
    let n = 0;
    for (let i = negative ? start + 1 : start; i < end; i++) n = n * 10 + (out[i]! - 0x30);
    return negative ? -n : n;
  }
  const text = (out as Buffer & Slices).latin1Slice(start, end);
  return isInteger(out, start, end) ? Number(text) : realOf(text, start);
}

/** A printed REAL as JSON.parse reads -json's form of it (the same digits: the same double). */
function realOf(text: string, at: number): number {
  if (/^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(text)) return Number(text);
  // The shell prints an infinite REAL as Inf in this mode; -json writes 1e999, which JSON.parse reads as Infinity.
  if (text === 'Inf' || text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  throw new SqliteFrameError(`a value this reader does not know at byte ${at}: ${JSON.stringify(text.slice(0, 40))}`);
}
