import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runUsage } from '../../../main/cli/usage.js';
import { assistantLine } from '../../fixtures/usage/lines.js';
import { usageHarness, type UsageHarness } from '../../fixtures/usage/service.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

/**
 * The disk cache write after a cold scan overlaps the answer: it starts before the answer is
 * computed, the answer is printed while it is still under way, and the exit waits for it. The
 * write is the real one; the service only learns that it ended once `slowDisk` lets it (a slow
 * disk), so an answer that waited for the write would never be printed.
 */
const events: string[] = [];
const slowDisk = { opened: Promise.resolve(), open: () => undefined as void };

vi.mock('../../../main/services/usage/disk-cache.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../main/services/usage/disk-cache.js')>();
  return {
    ...real,
    writeCacheFile: async (...[file, snapshot, identity, pricesId, onWriting]: Parameters<typeof real.writeCacheFile>) => {
      events.push('write started');
      const written = await real.writeCacheFile(file, snapshot, identity, pricesId, () => {
        events.push('bytes on their way');
        onWriting?.();
      });
      await slowDisk.opened;
      events.push('write ended');
      return written;
    },
  };
});

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('switchboard-usage-write-order-'));
  events.length = 0;
  slowDisk.opened = new Promise<void>((resolve) => (slowDisk.open = resolve));
});
afterEach(async () => {
  vi.restoreAllMocks();
  slowDisk.open();
  await cleanup();
});

describe('switchboard usage: the disk cache write off the answer path', () => {
  it('starts the write before computing the answer, prints it while the write is under way, and exits after the write', async () => {
    const agentDir = path.join(dir, 'agent');
    const transcript = path.join(agentDir, 'projects', 'p', 's.jsonl');
    await fs.mkdir(path.dirname(transcript), { recursive: true });
    await fs.writeFile(transcript, assistantLine({ msg: 'a', req: 'ra', ts: '2026-01-07T09:00:00.000Z', input: 1000, output: 100 }) + '\n');
    const env = { SWITCHBOARD_HOME: path.join(dir, 'home'), SWITCHBOARD_AGENT_DIR: agentDir };
    let out = '';
    const io = {
      out: (text: string) => {
        out += text;
        events.push('printed');
        slowDisk.open(); // the disk catches up once the answer is out
      },
      err: (text: string) => void events.push(`stderr ${text}`),
    };
    // If the answer waited for the write it would never be printed: give up after a while, so the order below says what went wrong.
    const stuck = setTimeout(() => {
      events.push('gave up waiting for the answer');
      slowDisk.open();
    }, 20_000);
    const code = await runUsage(['daily', '--json', '--tz', 'UTC'], env, io, 200);
    clearTimeout(stuck);
    events.push('exit');
    expect(code).toBe(0);
    expect(events).toEqual(['write started', 'bytes on their way', 'printed', 'write ended', 'exit']);
    expect(JSON.parse(out).daily.map((d: { inputTokens: number }) => d.inputTokens)).toEqual([1000]);
    // The answer was remembered against the file that write left.
    expect(JSON.stringify(JSON.parse(await fs.readFile(path.join(dir, 'home', '.cache', 'usage-cli-answers.json'), 'utf8')))).toContain('1000');
    await fs.stat(path.join(dir, 'home', '.cache', 'usage-cache.json'));
  }, 60_000);
});

describe('UsageService.startPersist', () => {
  let h: UsageHarness | undefined;
  afterEach(() => h?.cleanup());

  it('resolves once the bytes are on their way, before the write ends; stop() waits for the end', async () => {
    h = await usageHarness();
    await h.append('p/s.jsonl', [assistantLine({ msg: 'a', req: 'ra', ts: '2026-01-09T10:00:00.000Z', input: 5 })]);
    await h.service.refresh();
    expect(events).toEqual([]); // the app's write waits PERSIST_DELAY_MS
    await h.service.startPersist();
    expect(events).toEqual(['write started', 'bytes on their way']);
    const stopped = h.service.stop().then(() => events.push('stopped'));
    slowDisk.open();
    await stopped;
    expect(events).toEqual(['write started', 'bytes on their way', 'write ended', 'stopped']);
    await fs.stat(h.ctx.paths.usageCache);
  });

  it('resolves at once with nothing to write, and after a write that failed before its bytes went out (logged)', async () => {
    h = await usageHarness();
    await h.service.startPersist(); // no scan yet: nothing waits
    expect(events).toEqual([]);
    await h.append('p/s.jsonl', [assistantLine({ msg: 'a', req: 'ra', ts: '2026-01-09T10:00:00.000Z', input: 5 })]);
    await fs.mkdir(path.dirname(path.dirname(h.ctx.paths.usageCache)), { recursive: true });
    await fs.writeFile(path.dirname(h.ctx.paths.usageCache), 'a file where the cache folder goes');
    const warn = vi.spyOn(h.ctx.logger, 'warn');
    await h.service.refresh();
    slowDisk.open();
    await h.service.startPersist();
    await h.service.whenPersisted();
    expect(events).toEqual(['write started', 'bytes on their way']); // the real write failed: no 'write ended'
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/cannot write the disk cache/));
  });
});
