/**
 * Rows from `sqlite3 -ascii` framed so that no byte of a value can be taken for a separator
 * (docs/usage.md, "SQLite stores"). Each row starts with a header field naming every column's
 * type, and a text's length in bytes: `t<bytes>` text, `i` integer, `r` real, `b` blob, `n` NULL.
 * A text is then taken by its length (a 0x1E, 0x1F, newline or invalid UTF-8 inside it changes
 * nothing); the other values hold no separator (digits, a printed real, hex, nothing) and end at
 * the next one. Every value must be followed by its separator, else the page is not what this
 * reader asked for (`SqliteFrameError`).
 *
 * The values come out as `sqlite3 -json` gives them: text as a string (UTF-8, an invalid byte as
 * U+FFFD; cut at a NUL byte, as the shell prints text up to one), INTEGER and REAL as numbers
 * (a REAL printed with 20 digits, so the same double; ±Inf as ±Infinity, -json's ±1e999), NULL as
 * null, a BLOB as its bytes read as UTF-8 text (sent as hex, as it may hold NUL bytes).
 */

/** One column of a select list: its SQL and the name its value goes under. */
export interface FramedColumn {
  expr: string;
  name: string;
}

/** The page is not framed as asked (another sqlite3's output rules): read it another way. */
export class SqliteFrameError extends Error {}

const UNIT = 0x1f;
const RECORD = 0x1e;
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

/** The select list that frames `columns`: the header field, then each column's printed value. */
export function framedSelect(columns: readonly FramedColumn[]): string {
  const header = columns.map(({ expr }) =>
    `CASE typeof(${expr}) WHEN 'text' THEN 't' || length(CAST(printf('%s', ${expr}) AS BLOB)) WHEN 'integer' THEN 'i' WHEN 'real' THEN 'r' WHEN 'blob' THEN 'b' ELSE 'n' END`);
  // printf('%s') ends a text at a NUL byte, as the shell's printing does. A REAL as the shell
  // prints it has 15 digits; -json's 20 (`%!.20g`) give back the same double.
  const values = columns.map(({ expr }) =>
    `CASE typeof(${expr}) WHEN 'real' THEN printf('%!.20g', ${expr}) WHEN 'blob' THEN hex(${expr}) WHEN 'null' THEN '' ELSE ${expr} END`);
  return [header.join(' || '), ...values].join(', ');
}

/** The rows of one page of `sqlite3 -ascii` output of `framedSelect(columns)`. */
export function decodeFramedRows(out: Buffer, columns: readonly FramedColumn[]): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  const types = new Array<number>(columns.length);
  const lengths = new Array<number>(columns.length);
  let at = 0;
  while (at < out.length) {
    at = readHeader(out, at, types, lengths);
    const row: Record<string, unknown> = {};
    for (let c = 0; c < columns.length; c++) {
      const end = types[c] === 0x74 ? at + lengths[c]! : out.indexOf(c === columns.length - 1 ? RECORD : UNIT, at);
      if (end < at || end >= out.length || out[end] !== (c === columns.length - 1 ? RECORD : UNIT)) throw new SqliteFrameError(`a value of column ${columns[c]!.name} does not end where its row says`);
      row[columns[c]!.name] = valueOf(out, at, end, types[c]!);
      at = end + 1;
    }
    rows.push(row);
  }
  return rows;
}

/** Reads a row's header field into `types` (the tag's byte) and `lengths`; returns where the values start. */
function readHeader(out: Buffer, at: number, types: number[], lengths: number[]): number {
  for (let c = 0; c < types.length; c++) {
    const tag = out[at++];
    if (tag !== 0x74 && tag !== 0x69 && tag !== 0x72 && tag !== 0x62 && tag !== 0x6e) throw new SqliteFrameError('a row header names an unknown type');
    types[c] = tag;
    let n = 0;
    let digits = 0;
    for (let d = out[at]!; d >= 0x30 && d <= 0x39; d = out[++at]!, digits++) n = n * 10 + (d - 0x30);
    if ((tag === 0x74) !== (digits > 0)) throw new SqliteFrameError('a row header is malformed');
    lengths[c] = n;
  }
  if (out[at] !== UNIT) throw new SqliteFrameError('a row header does not end where expected');
  return at + 1;
}

function valueOf(out: Buffer, start: number, end: number, type: number): unknown {
  if (type === 0x74) return out.toString('utf8', start, end);
  if (type === 0x6e) {
    if (end !== start) throw new SqliteFrameError('a NULL came with a value');
    return null;
  }
  const text = out.toString('latin1', start, end);
  if (type === 0x62) {
    if (!/^(?:[0-9A-F]{2})*$/.test(text)) throw new SqliteFrameError('a blob is not hex');
    return Buffer.from(text, 'hex').toString('utf8');
  }
  return numberOf(text);
}

/** A printed INTEGER or REAL as JSON.parse reads -json's form of it (the same nearest double). */
function numberOf(text: string): number {
  if (/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(text)) return Number(text);
  // SQLite prints an infinite REAL as Inf; -json writes it as 1e999, which JSON.parse reads as Infinity.
  if (/^[+]?Inf$/.test(text)) return Infinity;
  if (text === '-Inf') return -Infinity;
  throw new SqliteFrameError(`a number reads ${JSON.stringify(text.slice(0, 40))}`);
}
