import { describe, expect, it } from 'vitest';
import { defuseFormula, toCsv, type ExportColumn } from '../../../../renderer/src/lib/table-export.js';

interface Row {
  project: string;
  cost: number | null;
}

const columns: ExportColumn<Row>[] = [
  { header: 'Project', value: (r) => r.project },
  { header: 'Cost', value: (r) => r.cost },
];

describe('CSV export against formula injection', () => {
  it.each([
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['+cmd|/C calc!A0', "'+cmd|/C calc!A0"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', `"'\r=1+1"`],
    ['/home/me/project', '/home/me/project'],
    ['claude-sonnet-4', 'claude-sonnet-4'],
    ['a=b', 'a=b'],
  ])('text cell %j is written %j', (text, cell) => {
    const csv = toCsv(columns, [{ project: text, cost: 1 }]);
    expect(csv).toBe(`Project,Cost\r\n${cell},1\r\n`);
  });

  it('keeps numbers as numbers, negative ones too', () => {
    const csv = toCsv(columns, [
      { project: 'p', cost: -1.5 },
      { project: 'q', cost: null },
    ]);
    expect(csv).toBe('Project,Cost\r\np,-1.5\r\nq,\r\n');
  });

  it('defuses a header too', () => {
    const csv = toCsv([{ header: '=cmd', value: () => 1 }], [{}]);
    expect(csv.split('\r\n')[0]).toBe("'=cmd");
  });

  it('leaves the empty string and plain text alone', () => {
    expect(defuseFormula('')).toBe('');
    expect(defuseFormula('sonnet')).toBe('sonnet');
  });
});
