import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runUsage } from '../../../main/cli/usage.js';
import { filesDigest, UsageMemo, type MemoSource } from '../../../main/cli/usage-memo.js';
import { statIdentity } from '../../../main/infra/file-stat.js';
import { ManualClock } from '../../../main/infra/clock.js';
import { UsageService } from '../../../main/services/usage/usage-service.js';
import { assistantLine } from '../../fixtures/usage/lines.js';
import { makeTempDir } from '../../helpers/temp-dir.js';
import { spyOnFileSync } from '../../helpers/file-sync-spy.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('switchboard-usage-memo-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await cleanup();
});

describe('UsageMemo', () => {
  const T0 = Date.UTC(2026, 10, 24, 9);
  let memoFile: string;
  let cacheFile: string;
  let source: MemoSource;
  const files = [{ path: '/a/x.jsonl', size: 10, mtimeMs: 1, ino: 7 }];
  const unchanged = vi.fn(async () => files);

  beforeEach(async () => {
    memoFile = path.join(dir, 'memo.json');
    cacheFile = path.join(dir, 'cache.bin');
    await fs.writeFile(cacheFile, 'cache v1');
    source = { cache: (await statIdentity(cacheFile))!, lastFetch: T0, files: filesDigest(files) };
    unchanged.mockClear();
  });

  it('answers within the fresh minute without listing the transcripts', async () => {
    const memo = new UsageMemo(memoFile, cacheFile);
    await memo.remember('k', source, { daily: [1] }, () => undefined);
    expect(await memo.lookup('k', T0 + 59_000, unchanged)).toEqual({ daily: [1] });
    expect(unchanged).not.toHaveBeenCalled();
    expect(await memo.lookup('other', T0, unchanged)).toBeUndefined();
  });

  it('past the fresh minute, answers only while the transcripts are the ones the cache holds', async () => {
    const memo = new UsageMemo(memoFile, cacheFile);
    await memo.remember('k', source, 42, () => undefined);
    expect(await memo.lookup('k', T0 + 3_600_000, unchanged)).toBe(42);
    expect(unchanged).toHaveBeenCalledTimes(1);
    const grown = async () => [{ ...files[0]!, size: 11 }];
    const added = async () => [...files, { path: '/a/y.jsonl', size: 1, mtimeMs: 1, ino: 8 }];
    const replaced = async () => [{ ...files[0]!, ino: 9 }];
    for (const now of [grown, added, replaced, async () => []]) expect(await memo.lookup('k', T0 + 3_600_000, now)).toBeUndefined();
    // A lastFetch ahead of the clock is no proof of freshness either.
    expect(await memo.lookup('k', T0 - 1_000, grown)).toBeUndefined();
  });

  it('is not used once the disk cache file was replaced or removed', async () => {
    const memo = new UsageMemo(memoFile, cacheFile);
    await memo.remember('k', source, 1, () => undefined);
    await fs.writeFile(`${cacheFile}.tmp`, 'cache v2');
    await fs.rename(`${cacheFile}.tmp`, cacheFile);
    expect(await memo.lookup('k', T0, unchanged)).toBeUndefined();
    await fs.rm(cacheFile);
    expect(await memo.lookup('k', T0, unchanged)).toBeUndefined();
  });

  it('a damaged, foreign or linked memo file is no answer, and the next answer replaces it', async () => {
    const memo = new UsageMemo(memoFile, cacheFile);
    for (const text of ['{', 'null', '{"format":"other","version":1,"entries":[]}', JSON.stringify({ format: 'switchboard-usage-cli-answers', version: 1, entries: [{ key: 'k', source: { cache: 1 }, value: 1 }] })]) {
      await fs.writeFile(memoFile, text);
      expect(await memo.lookup('k', T0, unchanged)).toBeUndefined();
    }
    await memo.remember('k', source, 'fresh', () => undefined);
    expect(await memo.lookup('k', T0, unchanged)).toBe('fresh');
    const elsewhere = path.join(dir, 'elsewhere.json');
    await fs.rename(memoFile, elsewhere);
    await fs.symlink(elsewhere, memoFile);
    expect(await memo.lookup('k', T0, unchanged)).toBeUndefined();
  });

  it('is written without waiting for the disk (a damaged file keeps no answer)', async () => {
    const memo = new UsageMemo(memoFile, cacheFile);
    const syncs = await spyOnFileSync();
    await memo.remember('k', source, 1, () => undefined);
    expect(syncs).not.toHaveBeenCalled();
    syncs.mockRestore();
    expect(await memo.lookup('k', T0, unchanged)).toBe(1);
  });

  it('keeps the 16 newest answers and none over 4 MiB', async () => {
    const memo = new UsageMemo(memoFile, cacheFile);
    for (let i = 0; i < 20; i++) await memo.remember(`k${i}`, source, i, () => undefined);
    expect(await memo.lookup('k19', T0, unchanged)).toBe(19);
    expect(await memo.lookup('k4', T0, unchanged)).toBe(4);
    expect(await memo.lookup('k3', T0, unchanged)).toBeUndefined();
    await memo.remember('big', source, 'x'.repeat(5 << 20), () => undefined);
    expect(await memo.lookup('big', T0, unchanged)).toBeUndefined();
    expect((await fs.stat(memoFile)).size).toBeLessThan(1 << 20);
  });

  it('a memo that cannot be written costs only the warning', async () => {
    const memo = new UsageMemo(path.join(dir, 'no-such-dir', 'x', 'memo.json'), cacheFile);
    await fs.writeFile(path.join(dir, 'no-such-dir'), 'a file in the way');
    const warn = vi.fn();
    await memo.remember('k', source, 1, warn);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/cannot keep the answer for the next run/));
  });
});

describe('switchboard usage with kept answers (in process)', () => {
  const out: string[] = [];
  const io = { out: (t: string) => void out.push(t), err: (t: string) => void out.push(`ERR ${t}`) };
  let env: NodeJS.ProcessEnv;
  let transcript: string;
  const daily = async (clock: ManualClock, args: string[] = ['daily', '--json', '--tz', 'UTC'], extra: NodeJS.ProcessEnv = {}) => {
    out.length = 0;
    expect(await runUsage(args, { ...env, ...extra }, io, 200, clock)).toBe(0);
    return out.join('');
  };

  beforeEach(async () => {
    const agentDir = path.join(dir, 'agent');
    transcript = path.join(agentDir, 'projects', 'p', 's.jsonl');
    await fs.mkdir(path.dirname(transcript), { recursive: true });
    await fs.writeFile(transcript, assistantLine({ msg: 'a', req: 'ra', ts: '2026-01-07T09:00:00.000Z', input: 1000, output: 100 }) + '\n');
    env = { SWITCHBOARD_HOME: path.join(dir, 'home'), SWITCHBOARD_AGENT_DIR: agentDir };
  });

  it('repeats an answer without loading the usage service until the transcripts change', async () => {
    const clock = new ManualClock(Date.now());
    const start = vi.spyOn(UsageService.prototype, 'start');
    const first = await daily(clock);
    expect(start).toHaveBeenCalledTimes(1);
    expect(JSON.parse(first).daily.map((d: { inputTokens: number }) => d.inputTokens)).toEqual([1000]);

    expect(await daily(clock)).toBe(first); // within the fresh minute
    clock.advance(3_600_000);
    expect(await daily(clock)).toBe(first); // an hour on, nothing written since
    expect(start).toHaveBeenCalledTimes(1);

    // Another report, or the same one as a table, is its own answer / the same answer formatted.
    expect(await daily(clock, ['daily', '--tz', 'UTC'])).toMatch(/^Total\s/m);
    expect(start).toHaveBeenCalledTimes(1);

    await fs.appendFile(transcript, assistantLine({ msg: 'b', req: 'rb', ts: '2026-01-08T09:00:00.000Z', input: 7, output: 1 }) + '\n');
    const after = JSON.parse(await daily(clock));
    expect(start).toHaveBeenCalledTimes(2);
    expect(after.daily.map((d: { inputTokens: number }) => d.inputTokens)).toEqual([1000, 7]);
    expect(JSON.parse(await daily(clock))).toEqual(after);
    expect(start).toHaveBeenCalledTimes(2);
  });

  // A source checkout keeps its build name across code changes: the disk cache format in the key
  // is what keeps an answer of an older counting (format 5 merged lines without requestId) out.
  it('an answer kept under another disk cache format is not reused, even within the fresh minute', async () => {
    const clock = new ManualClock(Date.now());
    const start = vi.spyOn(UsageService.prototype, 'start');
    await daily(clock);
    const memoFile = path.join(env.SWITCHBOARD_HOME!, '.cache', 'usage-cli-answers.json');
    const memo = JSON.parse(await fs.readFile(memoFile, 'utf8'));
    const [entry] = memo.entries;
    const parts: string[] = JSON.parse(entry.key);
    expect(parts).toContain('usage-cache-11');
    const marked = { daily: [{ ...entry.value.daily[0], inputTokens: 999 }] };
    for (const format of [[], ['usage-cache-9']]) {
      const key = JSON.stringify(parts.flatMap((p) => (p === 'usage-cache-11' ? format : [p])));
      await fs.writeFile(memoFile, JSON.stringify({ ...memo, entries: [{ ...entry, key, value: marked }] }));
      expect(JSON.parse(await daily(clock)).daily[0].inputTokens).toBe(1000);
    }
    expect(start).toHaveBeenCalledTimes(3);
    // the check itself: the same entry under the current key is what the memo answers
    await fs.writeFile(memoFile, JSON.stringify({ ...memo, entries: [{ ...entry, value: marked }] }));
    expect(JSON.parse(await daily(clock)).daily[0].inputTokens).toBe(999);
  });

  it('another agent dir is never answered from the memo, even within the fresh minute', async () => {
    const clock = new ManualClock(Date.now());
    await daily(clock);
    const other = path.join(dir, 'other-agent');
    await fs.mkdir(path.join(other, 'projects', 'q'), { recursive: true });
    await fs.writeFile(path.join(other, 'projects', 'q', 't.jsonl'), assistantLine({ msg: 'o', req: 'ro', ts: '2026-03-01T09:00:00.000Z', input: 5, output: 5 }) + '\n');
    const answer = JSON.parse(await daily(clock, ['daily', '--json', '--tz', 'UTC'], { SWITCHBOARD_AGENT_DIR: other }));
    expect(answer.daily.map((d: { date: string }) => d.date)).toEqual(['2026-03-01']);
  });

  it('a default zone answer is not reused after config.yaml changes', async () => {
    const clock = new ManualClock(Date.now());
    const start = vi.spyOn(UsageService.prototype, 'start');
    await fs.mkdir(env.SWITCHBOARD_HOME!, { recursive: true });
    const config = path.join(env.SWITCHBOARD_HOME!, 'config.yaml');
    await fs.writeFile(config, 'usage:\n  timezone: UTC\n');
    await daily(clock, ['daily', '--json']);
    await daily(clock, ['daily', '--json']);
    expect(start).toHaveBeenCalledTimes(1);
    await fs.writeFile(config, 'usage:\n  timezone: Pacific/Pago_Pago\n');
    const samoa = JSON.parse(await daily(clock, ['daily', '--json']));
    expect(start).toHaveBeenCalledTimes(2);
    expect(samoa.daily.map((d: { date: string }) => d.date)).toEqual(['2026-01-06']); // 09:00 UTC is 22:00 the day before there
  });
});

describe('filesDigest', () => {
  // Many files (more text than one chunk of the hash), given out of path order.
  const files = Array.from({ length: 3000 }, (_, i) => ({ path: `/logs/p${i % 7}/s-${(i * 7919) % 3000}.jsonl`, size: i * 13, mtimeMs: 1.5e12 + i / 8, ino: 900 + i }));

  it('is the digest of the files line by line in path order, as memos written earlier hold it', () => {
    const hash = createHash('sha1');
    for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) hash.update(`${f.path}\0${f.size}\0${f.mtimeMs}\0${f.ino}\n`);
    expect(filesDigest(files)).toBe(hash.digest('base64'));
  });

  it('changes with any file\'s size, mtime, inode or path, and with one file more or less', () => {
    const base = filesDigest(files);
    for (const change of [{ size: 1 }, { mtimeMs: 2 }, { ino: 3 }, { path: '/logs/other.jsonl' }]) {
      const changed = files.map((f, i) => (i === 2500 ? { ...f, ...change } : f));
      expect(filesDigest(changed)).not.toBe(base);
    }
    expect(filesDigest(files.slice(1))).not.toBe(base);
    expect(filesDigest([...files].reverse())).toBe(base);
  });
});

