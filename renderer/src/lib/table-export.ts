/** One exported column: a header and the raw value of a row (numbers stay numbers). */
export interface ExportColumn<R> {
  header: string;
  value: (row: R) => string | number | null;
}

/**
 * A text cell a spreadsheet would read as a formula (=, +, -, @, TAB or CR first) gets a leading
 * apostrophe, as OWASP advises for CSV injection. Project paths, model names and session ids come
 * from transcripts and upstreams, so they are not trusted. Numbers are never touched: -3 stays -3.
 */
export function defuseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** RFC 4180 CSV: every field that holds a comma, quote or line break is quoted, quotes doubled. */
export function toCsv<R>(columns: readonly ExportColumn<R>[], rows: readonly R[]): string {
  const field = (v: string | number | null) => {
    const s = v === null ? '' : typeof v === 'number' ? String(v) : defuseFormula(v);
    return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  const lines = [columns.map((c) => field(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => field(c.value(row))).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** The rows as the API sent them, pretty-printed. */
export function toJson<R>(rows: readonly R[]): string {
  return JSON.stringify(rows, null, 2) + '\n';
}
