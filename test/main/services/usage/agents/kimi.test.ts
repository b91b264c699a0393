import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kimi, readKimi } from '../../../../../main/services/usage/agents/kimi.js';
import { Pricing } from '../../../../../main/services/usage/pricing.js';

// Each row was run through ccusage 20.0.24 (`ccusage kimi daily|session --json --offline`) on the
// same lines; the expected figures are what it reported (docs/usage.md, "Every agent").
const pricing = new Pricing();
const MTIME = Date.parse('2026-03-05T12:00:00.000Z');
const flags = (root: string, model: string) => JSON.stringify({ [path.resolve(root)]: model });
const read = (file: string, lines: (object | string)[], flagText = flags('/k', 'kimi-k2-0905-preview')) =>
  readKimi({ path: file, text: lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n', mtimeMs: MTIME, flags: flagText });
const status = (timestamp: unknown, usage: object, messageId?: string) => ({ timestamp, message: { type: 'StatusUpdate', payload: { token_usage: usage, ...(messageId !== undefined ? { message_id: messageId } : {}) } } });
const record = (usage: object, extra: object = {}) => ({ type: 'usage.record', model: 'kimi-code/kimi-for-coding', usage, usageScope: 'turn', time: 1782113184943, ...extra });
const row = (r: ReturnType<typeof readKimi>['records'][number]) => [r.timestamp, r.model, r.inputTokens, r.outputTokens, r.cacheWrite5mTokens, r.cacheReadTokens, r.extraTokens, r.sessionId];
const CLI = '/k/sessions/g1/s1/wire.jsonl';
const CODE = '/k/sessions/ws/s2/agents/a1/wire.jsonl';

describe('kimi: Kimi CLI StatusUpdate lines', () => {
  it.each<[string, object, unknown[] | null]>([
    ['input_other is input, cache reads and writes their own kinds; seconds → ms (truncated)', status(1770983427.1239, { input_other: 100, output: 50, input_cache_read: 10, input_cache_creation: 20 }, 'm1'), [1770983427123, 'kimi-k2-0905-preview', 100, 50, 20, 10, 0, 's1']],
    ['a total above the parts with output 0 is output', status(1770983429, { input_other: 3, output: 0, total: 50 }), [1770983429000, 'kimi-k2-0905-preview', 3, 47, 0, 0, 0, 's1']],
    ['a total above the parts beside output is extra', status(1770983429, { input_other: 3, output: 5, total: 50 }), [1770983429000, 'kimi-k2-0905-preview', 3, 5, 0, 0, 42, 's1']],
    ['a string count, a fraction and a negative count are 0', status(1770983428, { input_other: '7', output: 5.9, input_cache_read: -4, total: 1000 }), [1770983428000, 'kimi-k2-0905-preview', 0, 1000, 0, 0, 0, 's1']],
    ['a string timestamp is the file mtime', status('1770983429', { input_other: 3, output: 1 }), [MTIME, 'kimi-k2-0905-preview', 3, 1, 0, 0, 0, 's1']],
    ['no timestamp is the file mtime', { message: { type: 'StatusUpdate', payload: { token_usage: { input_other: 40000, output: 1 } } } }, [MTIME, 'kimi-k2-0905-preview', 40000, 1, 0, 0, 0, 's1']],
    ['all-zero usage (a fraction alone) is dropped', status(1770983427, { input_other: 0, output: 5.9 }), null],
    ['another message type is not usage', { timestamp: 1770983427, message: { type: 'TurnBegin', payload: { token_usage: { input_other: 9 } } } }, null],
    ['the metadata line is not usage', { type: 'metadata', protocol_version: '1.3', message: { type: 'StatusUpdate', payload: { token_usage: { input_other: 9 } } } }, null],
  ])('%s', (_name, line, expected) => {
    const r = read(CLI, [line]).records;
    expect(r.map(row)).toEqual(expected === null ? [] : [expected]);
  });

  it('the model is config.json’s (from the scan flags), else kimi-for-coding', () => {
    expect(read(CLI, [status(1, { input_other: 1 })], flags('/k', 'kimi-k2')).records[0]!.model).toBe('kimi-k2');
    expect(read(CLI, [status(1, { input_other: 1 })], flags('/elsewhere', 'kimi-k2')).records[0]!.model).toBe('kimi-for-coding');
    expect(read(CLI, [status(1, { input_other: 1 })], '').records[0]!.model).toBe('kimi-for-coding');
  });

  it('identical usage of one session, message id and instant is one key ("" and no id alike); another session is another', () => {
    const same = [status(1770983427, { input_other: 300, output: 1 }, ''), status(1770983427, { input_other: 300, output: 1 })];
    const [a, b] = read(CLI, same).records;
    expect(a!.key).toBe(b!.key);
    const [c] = read('/k/sessions/g1/t/wire.jsonl', same).records;
    expect(c!.key).not.toBe(a!.key);
    const [d] = read(CLI, [status(1770983427, { input_other: 300, output: 1 }, 'm9')]).records;
    expect(d!.key).not.toBe(a!.key);
  });

  it('damaged lines holding a usage marker are malformed; other lines are not read at all', () => {
    const out = read(CLI, ['not json "StatusUpdate" "token_usage"', '{"type": "usage.record", broken', 'plain noise', status(1, { input_other: 1 })]);
    expect(out.malformed).toBe(2);
    expect(out.records).toHaveLength(1);
  });
});

describe('kimi: Kimi Code usage.record lines', () => {
  it.each<[string, object, unknown[] | null]>([
    ['a turn record counts; the kimi-code/ prefix is dropped; the session is the folder above agents/', record({ inputOther: 3064, output: 76, inputCacheRead: 14848, inputCacheCreation: 0 }), [1782113184943, 'kimi-for-coding', 3064, 76, 0, 14848, 0, 's2']],
    ['a session record is a running total: not counted', record({ inputOther: 5000, output: 200 }, { usageScope: 'session' }), null],
    ['its total is ignored', record({ inputOther: 11, output: 22, total: 500 }, { model: 'kimi-k2-turbo-preview', time: 1772113185000 }), [1772113185000, 'kimi-k2-turbo-preview', 11, 22, 0, 0, 0, 's2']],
    ['no model is kimi-for-coding; a string time is the file mtime', { type: 'usage.record', usage: { inputOther: 1, output: 1 }, usageScope: 'turn', time: '1772113185000' }, [MTIME, 'kimi-for-coding', 1, 1, 0, 0, 0, 's2']],
    ['a fractional time is the file mtime; a string count is 0', record({ inputOther: 2000, output: '5' }, { time: 1772113185000.5 }), [MTIME, 'kimi-for-coding', 2000, 0, 0, 0, 0, 's2']],
  ])('%s', (_name, line, expected) => {
    const r = read(CODE, [line]).records;
    expect(r.map(row)).toEqual(expected === null ? [] : [expected]);
  });

  it('Kimi CLI lines in the Kimi Code layout get the default model (ccusage looks for config.json under sessions/)', () => {
    expect(read(CODE, [status(1, { input_other: 1 })], flags('/k', 'kimi-k2')).records[0]!.model).toBe('kimi-for-coding');
  });
});

describe('kimi: files and prices', () => {
  it.each([
    ['/k/sessions/g/s/wire.jsonl', true],
    ['/k/sessions/ws/s/agents/a/wire.jsonl', true],
    ['/k/sessions/g/s/other.jsonl', false],
    ['/k/sessions/nested/path/s/wire.jsonl', false],
    ['/k/sessions/s/wire.jsonl', false],
  ])('accepts %s: %s', (file, ok) => {
    expect(kimi.accepts(file)).toBe(ok);
  });

  it('kimi-for-coding is priced as K2.5 before 2026-04-20T15:28:10.072Z and K2.6 after (ccusage: $0.00559048 for 3064 in, 76 out, 14848 cache read in June)', () => {
    const [june] = read(CODE, [record({ inputOther: 3064, output: 76, inputCacheRead: 14848 })]).records;
    expect(pricing.costOf(june!)).toBeCloseTo(0.00559048, 12);
    // ccusage: 100 in, 1042 out (50 + the total's rest), 20 + 0 cache write, 20 cache read of kimi-k2-0905-preview → $0.002716524.
    const day = read(CLI, [status(1770983427.123, { input_other: 100, output: 50, input_cache_read: 10, input_cache_creation: 20 }, 'm1'), status(1770983428.5, { input_cache_read: 10, total: 1000 }, 'm2'), status(1770983430, { input_other: -5, output: 2 })]).records;
    expect(day.reduce((s, r) => s + pricing.costOf(r), 0)).toBeCloseTo(0.002716524, 12);
  });

  it('extra tokens from a total above the parts count in the total but are not priced (ccusage: 2026-01-03 of the generated logs)', () => {
    const [r] = read(CLI, [status(1770983429, { input_other: 1000, output: 100, total: 1552 })]).records;
    expect([r!.outputTokens, r!.extraTokens]).toEqual([100, 452]);
    expect(pricing.costOf(r!)).toBeCloseTo((1000 * 0.632 + 100 * 2.53) / 1e6, 12);
  });

  describe('flags', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-kimi-'));
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
    it('reads each dir’s config.json model once per scan; none or a damaged one is the default', () => {
      const [a, b, c] = ['a', 'b', 'c'].map((n) => path.join(dir, n)) as [string, string, string];
      for (const d of [a, b, c]) fs.mkdirSync(d);
      fs.writeFileSync(path.join(a, 'config.json'), JSON.stringify({ model: 'kimi-k2-thinking' }));
      fs.writeFileSync(path.join(b, 'config.json'), '{ damaged');
      expect(JSON.parse(kimi.flags!([a, b, c]))).toEqual({ [a]: 'kimi-k2-thinking', [b]: 'kimi-for-coding', [c]: 'kimi-for-coding' });
      expect(kimi.flagInputs!([a, b])).toEqual([path.join(a, 'config.json'), path.join(b, 'config.json')]);
    });

    it('a file depends only on its own root’s model (Kimi Code layout files: the default, as ccusage)', () => {
      const text = JSON.stringify({ [path.resolve('/k')]: 'kimi-k2-thinking', [path.resolve('/other')]: 'kimi-k2-0905-preview' });
      expect(kimi.flagsOf!(CLI, text)).toBe('kimi-k2-thinking');
      expect(kimi.flagsOf!('/other/sessions/g/s/wire.jsonl', text)).toBe('kimi-k2-0905-preview');
      expect(kimi.flagsOf!(CODE, text)).toBe('kimi-for-coding');
    });
  });
});
