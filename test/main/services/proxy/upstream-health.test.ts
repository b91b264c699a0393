import { describe, expect, it } from 'vitest';
import type { Upstream } from '../../../../main/engines/proxy-engine/config.js';
import type { RequestLogEntry } from '../../../../main/engines/proxy-engine/traffic/request-entry.js';
import { median, upstreamHealth } from '../../../../main/services/proxy/upstream-health.js';

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const up = (name: string, keys: string[] = ['k1']): Upstream => ({ name, format: 'openai', base_url: `https://${name}.test/v1`, api_key: keys, models: [`${name}-model`] });

let seq = 0;
function entry(upstream: string, agoMs: number, status: number, latencyMs: number, keyIndex = 0, outcome?: RequestLogEntry['outcome']): RequestLogEntry {
  return {
    id: `e${seq++}`, time: NOW - agoMs, format: 'anthropic', method: 'POST', path: '/v1/messages', modelRequested: 'm', modelSent: 'm', upstream, keyIndex,
    status, outcome: outcome ?? (status >= 400 ? 'error' : 'ok'), latencyMs, ttfbMs: null, tokens: null, session: null, error: status >= 400 ? `upstream ${status}` : null, errorLog: null,
  };
}

describe('upstreamHealth', () => {
  it('success rate, median latency of the successes, last error, per upstream (newest first input)', () => {
    const entries = [entry('a', 1_000, 200, 300), entry('a', 2_000, 502, 50), entry('a', 3_000, 200, 100), entry('a', 4_000, 200, 200), entry('b', 5_000, 200, 900)];
    const [a, b] = upstreamHealth([up('a'), up('b')], entries, NOW, 30);
    expect(a).toMatchObject({ name: 'a', requests: 4, errors: 1, successRate: 0.75, medianLatencyMs: 200, failing: false, keyCount: 1 });
    expect(a!.lastError).toEqual({ status: 502, at: NOW - 2_000, message: 'upstream 502' });
    expect(b).toMatchObject({ requests: 1, errors: 0, successRate: 1, medianLatencyMs: 900, lastError: null });
  });

  it('no requests: nulls, not zeros; entries older than the hour and client hang-ups do not count', () => {
    const entries = [entry('a', 2 * 3600_000, 500, 10), entry('a', 1_000, 499, 10, 0, 'aborted')];
    expect(upstreamHealth([up('a')], entries, NOW, 30)[0]).toMatchObject({ requests: 0, successRate: null, medianLatencyMs: null, lastError: null, failing: false });
  });

  it('failing when its last three requests all failed; a success among them clears it', () => {
    const failing = [entry('a', 1_000, 500, 10), entry('a', 2_000, 502, 10), entry('a', 3_000, 429, 10), entry('a', 4_000, 200, 10)];
    expect(upstreamHealth([up('a')], failing, NOW, 30)[0]!.failing).toBe(true);
    const recovered = [entry('a', 500, 200, 10), ...failing];
    expect(upstreamHealth([up('a')], recovered, NOW, 30)[0]!.failing).toBe(false);
  });

  it('a key whose latest answer was 429 or 5xx cools for cooldown_seconds; a later success or an elapsed cooldown ends it', () => {
    const entries = [entry('a', 5_000, 429, 1_000, 1), entry('a', 6_000, 200, 100, 0), entry('a', 7_000, 500, 100, 0), entry('a', 100_000, 503, 100, 2)];
    const [a] = upstreamHealth([up('a', ['k0', 'k1', 'k2'])], entries, NOW, 30);
    expect(a!.coolingKeys).toEqual([{ index: 1, until: NOW - 5_000 + 1_000 + 30_000 }]);
    expect(a!.keyCount).toBe(3);
  });

  it('median of an even count is the mean of the middle two', () => {
    expect(median([4, 1, 3, 2])).toBe(3);
    expect(median([])).toBeNull();
  });
});
