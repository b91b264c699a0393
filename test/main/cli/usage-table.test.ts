import { describe, expect, it } from 'vitest';
import { formatTable, type TextColumn } from '../../../main/cli/usage-table.js';

const cols: TextColumn[] = [
  { header: 'Project', shrink: { min: 8, cutStart: true } },
  { header: 'Tokens', align: 'right' },
  { header: 'Cache', align: 'right', drop: 1 },
  { header: 'Models', shrink: { min: 6 }, drop: 2 },
];
const rows = [
  ['/home/dev/src/acme-api', '1,234', '99', 'claude-opus-4-6, claude-sonnet-4-5'],
  ['/w/b', '5', '0', 'gpt-5'],
];
const widest = (text: string) => Math.max(...text.trimEnd().split('\n').map((l) => [...l].length));

describe('formatTable', () => {
  it('lays out every column at its natural width when there is room, numbers right-aligned', () => {
    expect(formatTable(cols, rows, Infinity)).toBe(
      [
        'Project                 Tokens  Cache  Models',
        '──────────────────────  ──────  ─────  ──────────────────────────────────',
        '/home/dev/src/acme-api   1,234     99  claude-opus-4-6, claude-sonnet-4-5',
        '/w/b                         5      0  gpt-5',
        '',
      ].join('\n'),
    );
  });

  it.each([
    // width, the lines' widest, which headers remain
    [80, 73, ['Project', 'Tokens', 'Cache', 'Models']],
    [60, 60, ['Project', 'Tokens', 'Cache', 'Models']],
    [40, 40, ['Project', 'Tokens', 'Cache', 'Models']],
    [30, 30, ['Project', 'Tokens', 'Cache']],
    [20, 20, ['Project', 'Tokens']],
    [16, 16, ['Project', 'Tokens']],
    [5, 16, ['Project', 'Tokens']],
  ])('at %i columns: at most that wide (or as narrow as it gets), shrinking before dropping', (width, widestLine, headers) => {
    const text = formatTable(cols, rows, width);
    expect(widest(text)).toBe(widestLine);
    const head = text.split('\n')[0]!;
    expect(head.split(/\s{2,}/)).toEqual(headers);
  });

  it('cuts a path at its start and other text at its end, with an ellipsis', () => {
    const lines = formatTable(cols, rows, 40).split('\n');
    // 40 = 11 + 2 + 6 + 2 + 5 + 2 + 12: the two shrinkable columns give up width in turn
    expect(lines[2]).toBe('…c/acme-api   1,234     99  claude-opus…');
    expect(lines[3]).toBe('/w/b              5      0  gpt-5');
  });

  it('adds a footer under a rule and sizes columns for it too', () => {
    const text = formatTable([{ header: 'Day' }, { header: 'Cost', align: 'right' }], [['2025-11-03', '$1.00']], Infinity, ['Total', '$1,000.00']);
    expect(text.split('\n')).toEqual(['Day              Cost', '──────────  ─────────', '2025-11-03      $1.00', '──────────  ─────────', 'Total       $1,000.00', '']);
  });

  it('an empty report still has its header', () => {
    expect(formatTable([{ header: 'Date' }, { header: 'Cost', align: 'right' }], [], 80)).toBe('Date  Cost\n────  ────\n');
  });
});
