import { describe, expect, it, vi } from 'vitest';
import { DailyByFile } from '../../../../main/services/usage/daily-by-file.js';
import { addToDays, dailyEntries, entriesOf, mergeDays, type DailyEntry, type DayBucket } from '../../../../main/services/usage/daily.js';
import type { UsageRecord } from '../../../../main/services/usage/types.js';
import { sliceByWindow } from '../../../../main/services/usage/slice.js';
import { ZoneCalendar, parseCompactDate } from '../../../../main/services/usage/zone-calendar.js';
import { usageRecord } from '../../../fixtures/usage/lines.js';

const SONNET = 'claude-sonnet-4-5-20250929';
const OPUS = 'claude-opus-4-1-20250805';

// Costs are binary fractions, so per-file and per-request sums are equal to the bit.
const a = [
  usageRecord({ ts: '2025-11-03T10:00:00Z', model: SONNET, inputTokens: 100, outputTokens: 50, cacheReadTokens: 2000, cost: 1.5, file: '/a.jsonl' }),
  usageRecord({ ts: '2025-11-04T03:30:00Z', model: OPUS, inputTokens: 10, outputTokens: 200, cost: 3, file: '/a.jsonl' }),
];
const b = [
  usageRecord({ ts: '2025-11-03T23:30:00Z', model: SONNET, inputTokens: 1, outputTokens: 1, cacheWrite1hTokens: 400, cost: 0.25, file: '/b.jsonl' }),
  usageRecord({ ts: '2025-11-05T01:00:00Z', model: '<synthetic>', file: '/b.jsonl' }),
];

const window = (since: string | null, until: string | null) => ({
  since: since === null ? null : parseCompactDate(since),
  until: until === null ? null : parseCompactDate(until),
});

describe('daily rows summed per file', () => {
  it.each([
    ['UTC', null, null],
    ['America/New_York', null, null],
    ['Asia/Tokyo', '20251104', '20251104'],
    ['UTC', '20251104', null],
  ])('equal the request-by-request rows in %s, window %s–%s', (zone, since, until) => {
    const cal = new ZoneCalendar(zone);
    const w = window(since, until);
    expect(new DailyByFile().daily([a, b], cal, w)).toEqual(dailyEntries(sliceByWindow([...a, ...b], cal, w)));
  });

  it('adds up again only the files whose kept list changed', () => {
    const cal = new ZoneCalendar('UTC');
    const byFile = new DailyByFile();
    const all = window(null, null);
    byFile.daily([a, b], cal, all);
    const grownB = [...b, usageRecord({ ts: '2025-11-05T02:00:00Z', model: OPUS, inputTokens: 7, outputTokens: 3, cost: 0.5, file: '/b.jsonl' })];
    const dayOf = vi.spyOn(cal, 'dayOf');
    const rows = byFile.daily([a, grownB], cal, all);
    expect(dayOf).toHaveBeenCalledTimes(grownB.length);
    expect(rows).toEqual(dailyEntries(sliceByWindow([...a, ...grownB], cal, all)));
    expect(rows.at(-1)).toMatchObject({ date: '2025-11-05', inputTokens: 7, outputTokens: 3, cost: 0.5, modelsUsed: [OPUS] });
    // an earlier answer is not changed by a later merge
    expect(byFile.daily([a, b], cal, all)).toEqual(dailyEntries(sliceByWindow([...a, ...b], cal, all)));
  });

  it('with thousands of files, an answer after one file changed re-adds only its block of files', () => {
    const cal = new ZoneCalendar('UTC');
    const all = window(null, null);
    const files = Array.from({ length: 2000 }, (_, i) => [
      usageRecord({ ts: `2025-11-0${1 + (i % 5)}T10:00:00Z`, model: i % 2 ? SONNET : OPUS, inputTokens: i, outputTokens: 1, cost: (i % 8) / 8, file: `/f${i}.jsonl` }),
    ]);
    const byFile = new DailyByFile();
    byFile.daily(files, cal, all);
    const changed = [...files];
    changed[1500] = [...files[1500]!, usageRecord({ ts: '2025-11-06T10:00:00Z', model: OPUS, inputTokens: 5, outputTokens: 5, cost: 0.25, file: '/f1500.jsonl' })];
    const lookups = vi.spyOn(WeakMap.prototype, 'get');
    const rows = byFile.daily(changed, cal, all);
    const perFileLookups = lookups.mock.calls.length;
    lookups.mockRestore();
    expect(perFileLookups).toBeLessThanOrEqual(512); // one block's files, not all 2000
    expect(rows).toEqual(dailyEntries(sliceByWindow(changed.flat(), cal, all)));
    expect(new DailyByFile().daily(changed, cal, all)).toEqual(rows);
  });

  describe('costs that are not binary fractions', () => {
    /** The sums as they were always added: per file, then per block of 512 files, then across blocks. */
    function perFileSums(groups: readonly (readonly UsageRecord[])[], cal: ZoneCalendar): DailyEntry[] {
      const byDay = new Map<number, DayBucket>();
      for (let at = 0; at < groups.length; at += 512) {
        const block = new Map<number, DayBucket>();
        for (const records of groups.slice(at, at + 512)) {
          const days = new Map<number, DayBucket>();
          for (const r of records) addToDays(days, cal.dayOf(r.timestamp), r, r.cost);
          mergeDays(block, days);
        }
        mergeDays(byDay, block);
      }
      return entriesOf(byDay);
    }
    // One-request files (OpenCode's message files) and files of three requests on one day, on the same days, in the same blocks.
    let seed = 7;
    const cost = () => ((seed = (seed * 48271) % 2147483647) / 2147483647) * 0.37;
    const files: UsageRecord[][] = Array.from({ length: 1300 }, (_, i) =>
      Array.from({ length: i % 3 === 0 ? 3 : 1 }, (_, k) =>
        usageRecord({ ts: `2025-11-0${1 + (i % 4)}T1${k}:00:00Z`, model: i % 2 ? SONNET : OPUS, agent: i % 5 ? 'opencode' : 'claude', inputTokens: i + k, outputTokens: 3, cost: cost(), file: `/f${i}.json` }),
      ),
    );
    const cal = new ZoneCalendar('UTC');
    const all = window(null, null);

    it('are the same to the bit as summed per file, then per block, then across blocks', () => {
      const expected = perFileSums(files, cal);
      // the fixture is order-sensitive: a request-by-request sum differs in the last bits
      expect(dailyEntries(sliceByWindow(files.flat(), cal, all)).map((d) => d.cost)).not.toEqual(expected.map((d) => d.cost));
      expect(new DailyByFile().daily(files, cal, all)).toEqual(expected);
    });

    it('stay so after an append to a one-request file, a removed file, and a new one', () => {
      const byFile = new DailyByFile();
      byFile.daily(files, cal, all);
      const grown = [...files];
      grown[1] = [...files[1]!, usageRecord({ ts: '2025-11-02T12:00:00Z', model: OPUS, agent: 'opencode', inputTokens: 9, cost: cost(), file: '/f1.json' })];
      expect(byFile.daily(grown, cal, all)).toEqual(perFileSums(grown, cal));
      const removed = grown.filter((_, i) => i !== 700);
      expect(byFile.daily(removed, cal, all)).toEqual(perFileSums(removed, cal));
      const added = [...removed, [usageRecord({ ts: '2025-11-04T08:00:00Z', model: SONNET, agent: 'opencode', cost: cost(), file: '/g.json' })]];
      expect(byFile.daily(added, cal, all)).toEqual(perFileSums(added, cal));
      expect(byFile.daily(files, cal, all)).toEqual(perFileSums(files, cal));
    });
  });
});
