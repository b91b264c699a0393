import { afterAll, describe, expect, it } from 'vitest';
import { leftovers, runSoak, type SoakResult } from '../../../bench/soak-run.js';

/**
 * The CI-sized `npm run bench:soak`: 8 start/stop cycles of the proxy and 15 of the bridge daemon
 * through the management API of a `switchboard serve` child, both loops at once, under load on
 * cached reads. Nothing may fail, no child may be left, descriptors must not grow, RSS only
 * within a generous bound (the bench reports the real figures at 200 cycles). On a busy machine
 * one cycle pair can take 10 s, so the outer bound is generous; if it is ever reached anyway,
 * afterAll stops the server, so no `serve` or daemon outlives the file.
 */

const CYCLES = Number(process.env.SOAK_TEST_CYCLES ?? 8);
const FD_BOUND = 10;
const RSS_BOUND_MIB = 96;

describe('soak (CI size)', () => {
  let r: SoakResult;
  const giveUp = new AbortController();
  afterAll(() => giveUp.abort());

  it(`${CYCLES} proxy and ${CYCLES} bridge start/stop cycles under load all succeed`, async () => {
    r = await runSoak({ cycles: CYCLES, loadConnections: 5, signal: giveUp.signal });
    console.info(
      `soak ${CYCLES}x2: fds ${r.before.fds} -> ${r.after.fds}, RSS ${(r.before.rssKiB / 1024).toFixed(1)} -> ${(r.after.rssKiB / 1024).toFixed(1)} MiB, ` +
        `load ${r.load.requests} requests p99 ${r.load.p99} ms, ${(r.wallMs / 1000).toFixed(1)} s`,
    );
    expect(r.proxy.failed).toEqual([]);
    expect(r.bridge.failed).toEqual([]);
    expect(r.proxy.ok).toBe(CYCLES);
    expect(r.bridge.ok).toBe(CYCLES);
  }, 600_000);

  it('leaves no proxy, bridge or zombie process under the server', () => {
    expect(r).toBeDefined();
    expect(leftovers(r.after)).toEqual([]);
    expect(r.after.children.length).toBeLessThanOrEqual(r.before.children.length);
  });

  it(`grows open descriptors by at most ${FD_BOUND} and RSS by at most ${RSS_BOUND_MIB} MiB`, () => {
    expect(r.after.fds - r.before.fds).toBeLessThanOrEqual(FD_BOUND);
    expect((r.after.rssKiB - r.before.rssKiB) / 1024).toBeLessThanOrEqual(RSS_BOUND_MIB);
  });

  it('served the background load without an error', () => {
    expect(r.load.requests).toBeGreaterThan(100);
    expect(r.load.errors).toBe(0);
    expect(r.load.non2xx).toBe(0);
  });
});
