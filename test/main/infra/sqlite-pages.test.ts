import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeFramedRows, framedColumns, SqliteFrameError } from '../../../main/infra/sqlite-frame.js';
import { sqlitePages, SQLITE_PAGE_ROWS } from '../../../main/infra/sqlite-pages.js';

/**
 * The framed `sqlite3 -quote` rows (infra/sqlite-frame.ts) against what `sqlite3 -json` gives for
 * the same rows, on the real tool and a temp database of values that would break a split on
 * separators, and values where -json's own reading (numbers, invalid UTF-8, NUL, BLOBs) is subtle.
 */
let dir: string;
let db: string;

const options = { command: 'sqlite3', timeoutMs: 30_000, busyMs: 100 };
const sql = (file: string, text: string) => execFileSync('sqlite3', [file], { input: text, stdio: ['pipe', 'ignore', 'pipe'] });

/** Each row: `v` the value, a label to name it in a failure. */
const NASTY: [string, string][] = [
  ['separators', `'a' || char(30) || 'b' || char(31) || 'c' || char(30) || char(31) || ',' || char(10)`],
  ['a whole fake row', `'3,NULL,''x'',7' || char(10) || '1,2,'`],
  ['quotes only', `''''''`],
  ['newlines, CR, tab', `'line1' || char(10) || 'line2' || char(13) || char(10) || char(9) || 'end' || char(10)`],
  ['quotes and backslashes', `'say "hi" \\ \\" '' \\u0041'`],
  ['invalid UTF-8 (a lone continuation, a cut sequence, 0xFF)', `CAST(x'61806263e2826466ff67' AS TEXT)`],
  ['a text ending in a cut sequence', `CAST(x'6162e282' AS TEXT)`],
  ['a cut sequence before a separator byte', `CAST(x'e21fe21e' AS TEXT)`],
  ['NUL inside a text (the shell prints up to it)', `'before' || char(0) || 'after'`],
  ['multi-byte text', `'naïve – 日本 😀'`],
  ['empty text', `''`],
  ['NULL', 'NULL'],
  ['text of digits', `'12345'`],
  ['text that reads like a number', `'1e999'`],
  ['text "Inf"', `'Inf'`],
  ['text "null"', `'null'`],
  ['2^53 + 1', '9007199254740993'],
  ['the largest integer', '9223372036854775807'],
  ['the smallest integer', '-9223372036854775808'],
  ['zero', '0'],
  ['0.1 + 0.2', '0.1 + 0.2'],
  ['a large REAL', '1.7976931348623157e308'],
  ['a tiny REAL', '5e-324'],
  ['a REAL with no fraction', '3.0'],
  ['negative zero', '-0.0'],
  ['+infinity', '1e999'],
  ['-infinity', '-1e999'],
  ['a BLOB with NUL and separators', `x'00411f1e0a42'`],
  ['a BLOB of invalid UTF-8', `x'ff80e282'`],
  ['an empty BLOB', `x''`],
];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-sqlite-pages-'));
  db = path.join(dir, 'nasty.db');
  sql(db, `CREATE TABLE t(label TEXT, v);\n${NASTY.map(([label, v]) => `INSERT INTO t VALUES('${label.replace(/'/g, "''")}', ${v});`).join('\n')}\n`);
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function jsonRows(file: string, select: string, from: string): Record<string, unknown>[] {
  const text = execFileSync('sqlite3', ['-readonly', '-json', file, `SELECT ${select} FROM ${from} ORDER BY rowid;`], { encoding: 'utf8' }).trim();
  return text === '' ? [] : (JSON.parse(text) as Record<string, unknown>[]);
}

function framedRows(file: string, select: string, from: string): Record<string, unknown>[] {
  const out = execFileSync('sqlite3', ['-readonly', '-quote', file, `SELECT ${select} FROM ${from} ORDER BY rowid;`]);
  return decodeFramedRows(out, framedColumns(select));
}

/** A sqlite3 that logs its output mode and hands on the real one's output, changed by `change` (JS on `out`, a latin1 string) in `-quote` mode. */
function fakeSqlite(name: string, change: string): { command: string; modes: () => string[] } {
  const log = path.join(dir, `${name}.log`);
  const command = path.join(dir, name);
  fs.writeFileSync(command, `#!${process.execPath}
const { spawnSync } = require('node:child_process');
const args = process.argv.slice(2);
require('node:fs').appendFileSync(${JSON.stringify(log)}, args[1] + '\\n');
const r = spawnSync('sqlite3', args);
let out = r.stdout.toString('latin1');
if (args[1] === '-quote') out = ${change};
process.stdout.write(Buffer.from(out, 'latin1'));
process.stderr.write(r.stderr);
process.exitCode = r.status ?? 1;
`, { mode: 0o755 });
  return { command, modes: () => fs.readFileSync(log, 'utf8').trim().split('\n') };
}


// The columns as the readers ask for them: raw, and through SQLite's own conversions.
const SELECT = 'rowid AS _rowid, label, v, typeof(v) AS type, CAST(v AS TEXT) AS text, CAST(v AS INTEGER) AS int, CAST(v AS REAL) AS real';

describe('framed rows', () => {
  it('decode to exactly what sqlite3 -json gives, value by value', () => {
    const json = jsonRows(db, SELECT, 't');
    const framed = framedRows(db, SELECT, 't');
    expect(framed).toHaveLength(NASTY.length);
    for (let i = 0; i < NASTY.length; i++) expect({ label: NASTY[i]![0], ...framed[i] }).toStrictEqual({ label: NASTY[i]![0], ...json[i] });
  });

  it('a page that is not rows of literals is a framing error, never rows', () => {
    const columns = framedColumns('rowid AS _rowid, v');
    for (const page of ["1,'a'\r\n", "1,unistr('a\\u000db')\n", "1,'a'", "1,'a\n", "1,'a',2\n", '1\n', "1,X'4'\n", '1,1e5x\n', "1,'a'\n2"]) {
      expect(() => decodeFramedRows(Buffer.from(page, 'latin1'), columns), JSON.stringify(page)).toThrow(SqliteFrameError);
    }
    expect(decodeFramedRows(Buffer.from("1,'a''b'\n2,NULL\n3,-4.5e-7\n4,X'00ff'\n", 'latin1'), columns)).toStrictEqual([
      { _rowid: 1, v: "a'b" }, { _rowid: 2, v: null }, { _rowid: 3, v: -4.5e-7 }, { _rowid: 4, v: '\0\ufffd' },
    ]);
  });

  it('give the values themselves: separators and newlines kept, NULL apart from empty, numbers as -json reads them', () => {
    const v = Object.fromEntries(framedRows(db, 'rowid AS _rowid, label, v', 't').map((r) => [r.label, r.v]));
    expect(v['separators']).toBe('a\x1eb\x1fc\x1e\x1f,\n');
    expect(v['a whole fake row']).toBe("3,NULL,'x',7\n1,2,");
    expect(v['quotes only']).toBe("''");
    expect(v['newlines, CR, tab']).toBe('line1\nline2\r\n\tend\n');
    expect(v['quotes and backslashes']).toBe('say "hi" \\ \\" \' \\u0041');
    expect(v['invalid UTF-8 (a lone continuation, a cut sequence, 0xFF)']).toBe('a\ufffdbc\ufffddf\ufffdg');
    expect(v['a cut sequence before a separator byte']).toBe('\ufffd\x1f\ufffd\x1e');
    expect(v['NUL inside a text (the shell prints up to it)']).toBe('before');
    expect(v['multi-byte text']).toBe('naïve – 日本 😀');
    expect(v['empty text']).toBe('');
    expect(v['NULL']).toBeNull();
    expect(v['text of digits']).toBe('12345');
    expect(v['text "Inf"']).toBe('Inf');
    expect(v['2^53 + 1']).toBe(9007199254740992); // the nearest double, as JSON.parse reads it
    expect(v['the largest integer']).toBe(9223372036854775807);
    expect(v['0.1 + 0.2']).toBe(0.1 + 0.2);
    expect(v['a large REAL']).toBe(Number.MAX_VALUE);
    expect(v['a tiny REAL']).toBe(5e-324);
    expect(v['+infinity']).toBe(Infinity);
    expect(v['-infinity']).toBe(-Infinity);
    expect(v['a BLOB with NUL and separators']).toBe('\0A\x1f\x1e\nB');
    expect(v['an empty BLOB']).toBe('');
  });

  it('the select list: commas inside parentheses and quotes stay in their column; a column needs a name', () => {
    expect(framedColumns("rowid AS _rowid, CAST(id AS TEXT) AS id, (SELECT d FROM s WHERE s.id = t.sid AND x IN (1, 2)) AS directory, replace(v, ',', ';') as v2, data")).toStrictEqual([
      { expr: 'rowid', name: '_rowid' },
      { expr: 'CAST(id AS TEXT)', name: 'id' },
      { expr: '(SELECT d FROM s WHERE s.id = t.sid AND x IN (1, 2))', name: 'directory' },
      { expr: "replace(v, ',', ';')", name: 'v2' },
      { expr: 'data', name: 'data' },
    ]);
    expect(() => framedColumns('rowid AS _rowid, CAST(v AS TEXT)')).toThrow(/needs a name/);
  });
});

describe('sqlitePages', () => {
  it('reads the nasty rows as -json does, across pages', () => {
    const many = path.join(dir, 'many.db');
    const n = SQLITE_PAGE_ROWS + 5;
    sql(many, `CREATE TABLE m(v); WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${n}) INSERT INTO m SELECT CASE i % 4 WHEN 0 THEN 'x,' || char(10) || i || ''',' WHEN 1 THEN i WHEN 2 THEN NULL ELSE i + 0.5 END FROM c;`);
    const seen: Record<string, unknown>[] = [];
    sqlitePages(many, 'rowid AS _rowid, v', 'm', (row) => seen.push(row), options);
    expect(seen).toStrictEqual(jsonRows(many, 'rowid AS _rowid, v', 'm'));
    const text = SQLITE_PAGE_ROWS + 4 - (SQLITE_PAGE_ROWS % 4); // a text row on the second page
    expect(seen[text - 1]).toStrictEqual({ _rowid: text, v: `x,\n${text}',` });
  });

  it('a _rowid that is not a growing number fails the read instead of reading the first page again for ever', () => {
    const many = path.join(dir, 'same.db');
    sql(many, `CREATE TABLE m(v); WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${SQLITE_PAGE_ROWS + 1}) INSERT INTO m SELECT i FROM c;`);
    let seen = 0;
    // Not a number: the paging condition would be dropped and the first page read again.
    expect(() => sqlitePages(many, "'r' || rowid AS _rowid, v", 'm', () => seen++, options)).toThrow(`_rowid r${SQLITE_PAGE_ROWS} does not follow -Infinity`);
    expect(seen).toBe(SQLITE_PAGE_ROWS);
  });

  it('a condition narrows the rows', () => {
    const seen: unknown[] = [];
    sqlitePages(db, 'rowid AS _rowid, v', 't', (row) => seen.push(row.v), { ...options, where: "typeof(v) = 'blob'" });
    expect(seen).toStrictEqual(['\0A\x1f\x1e\nB', '\ufffd\ufffd\ufffd', '']);
  });

  it('every nasty row as -json gives it, in one -quote query per page', () => {
    const logging = fakeSqlite('logging-sqlite3', 'out');
    const seen: Record<string, unknown>[] = [];
    sqlitePages(db, SELECT, 't', (row) => seen.push(row), { ...options, command: logging.command });
    expect(seen).toStrictEqual(jsonRows(db, SELECT, 't'));
    expect(logging.modes()).toStrictEqual(['-quote']);
  });

  it('a sqlite3 that ends lines with CR LF (text-mode output on Windows) or writes control characters as unistr(…): read again as -json, the same rows', () => {
    const select = 'rowid AS _rowid, label, v';
    const crlf = fakeSqlite('crlf-sqlite3', "out.replace(/\\n/g, '\\r\\n')");
    const rows: Record<string, unknown>[] = [];
    sqlitePages(db, select, 't', (row) => rows.push(row), { ...options, command: crlf.command, where: "label = 'separators'" });
    expect(rows).toStrictEqual(jsonRows(db, select, "t WHERE label = 'separators'"));
    expect(crlf.modes()).toStrictEqual(['-quote', '-json']);
    // As sqlite3 3.50 prints a text with a CR in -quote mode: unistr('a\u000db').
    const unistr = fakeSqlite('unistr-sqlite3', "out.replace(/'([^']*)\\r([^']*)'/g, (m, a, b) => `unistr('${a}\\\\u000d${b}')`)");
    rows.length = 0;
    sqlitePages(db, select, 't', (row) => rows.push(row), { ...options, command: unistr.command, where: "label LIKE 'newlines%'" });
    expect(rows).toStrictEqual(jsonRows(db, select, "t WHERE label LIKE 'newlines%'"));
    expect(rows[0]!.v).toBe('line1\nline2\r\n\tend\n');
    expect(unistr.modes()).toStrictEqual(['-quote', '-json']);
  });

  it('a page refused at its last row is read again whole as -json: none of its rows is handed out twice', () => {
    const select = 'rowid AS _rowid, label, v';
    const lastLine = fakeSqlite('last-line-sqlite3', "out.replace(/\\n$/, '\\r\\n')");
    const rows: Record<string, unknown>[] = [];
    sqlitePages(db, select, 't', (row) => rows.push(row), { ...options, command: lastLine.command });
    expect(rows.length).toBeGreaterThan(2);
    expect(rows).toStrictEqual(jsonRows(db, select, 't'));
    expect(lastLine.modes()).toStrictEqual(['-quote', '-json']);
  });

  it('the errors name their cause: not a database, no such table, a column without a name', () => {
    const junk = path.join(dir, 'junk.db');
    fs.writeFileSync(junk, Buffer.alloc(4096, 0x41));
    expect(() => sqlitePages(junk, 'rowid AS _rowid, v', 't', () => {}, options)).toThrow(/sqlite3 failed on .*junk\.db: .*not a database/);
    expect(() => sqlitePages(db, 'rowid AS _rowid, v', 'nope', () => {}, options)).toThrow(/sqlite3 failed on .*nasty\.db: .*no such table: nope/);
    expect(() => sqlitePages(db, 'rowid AS _rowid, v', 't', () => {}, { ...options, command: path.join(dir, 'no-such-sqlite3') })).toThrow(/sqlite3 is not available/);
  });
});
