import { describe, expect, it } from 'vitest';
import {
  createNoticeGate,
  noticeForActionFailure,
  noticeForAnomaly,
  noticeForChildEvent,
  type DesktopNotice,
} from '../../../main/app/notifications.js';

const ev = (state: string, message?: string) => ({ state, running: state === 'running', ...(message ? { message } : {}) });

describe('noticeForChildEvent', () => {
  it('proxy running → failed: exited unexpectedly, with the message', () => {
    expect(noticeForChildEvent('proxy', 'running', ev('failed', 'proxy-engine exited unexpectedly (code 1)'))).toEqual({
      kind: 'proxy-exited',
      title: 'Proxy exited unexpectedly',
      body: 'proxy-engine exited unexpectedly (code 1)',
    });
  });

  it('proxy running → stopped without "stopping": also an unexpected exit', () => {
    expect(noticeForChildEvent('proxy', 'running', ev('stopped'))?.kind).toBe('proxy-exited');
  });

  it('proxy starting → failed: failed to start', () => {
    expect(noticeForChildEvent('proxy', 'starting', ev('failed', 'port 8317 is already in use by another process'))).toEqual({
      kind: 'proxy-start-failed',
      title: 'Proxy failed to start',
      body: 'port 8317 is already in use by another process',
    });
  });

  it('a failure seen before any other event (auto-start at launch) is a start failure', () => {
    expect(noticeForChildEvent('proxy', undefined, ev('failed'))).toEqual({
      kind: 'proxy-start-failed',
      title: 'Proxy failed to start',
      body: 'No details were reported.',
    });
  });

  it.each([
    ['stopping', 'stopped'],
    ['running', 'stopping'],
    ['starting', 'running'],
    ['starting', 'starting'],
    ['stopped', 'starting'],
    ['stopping', 'failed'],
    ['failed', 'failed'],
    ['running', 'running'],
  ])('proxy %s → %s: no notice', (previous, state) => {
    expect(noticeForChildEvent('proxy', previous, ev(state, 'detail'))).toBeUndefined();
  });

  it('a repeated failed event (detail added later) does not notify twice', () => {
    expect(noticeForChildEvent('proxy', 'failed', ev('failed', 'proxy-engine exited unexpectedly (code 1): boom'))).toBeUndefined();
  });

  it('bridge starting → failed: bridge failed to start', () => {
    expect(noticeForChildEvent('bridge', 'starting', ev('failed', 'health check timed out after 30 s'))).toEqual({
      kind: 'bridge-start-failed',
      title: 'Bridge failed to start',
      body: 'health check timed out after 30 s',
    });
  });

  it('bridge exit is no notice (decisions §7 lists only its start failure)', () => {
    expect(noticeForChildEvent('bridge', 'running', ev('failed', 'gone'))).toBeUndefined();
    expect(noticeForChildEvent('bridge', 'stopping', ev('stopped'))).toBeUndefined();
  });
});

describe('noticeForAnomaly and noticeForActionFailure', () => {
  it('an anomaly event becomes a notice with its date and message', () => {
    expect(noticeForAnomaly({ type: 'cost_spike', date: '2026-01-05', message: 'Cost $40.00 is 4.0x the daily average' })).toEqual({
      kind: 'anomaly',
      title: 'Usage anomaly on 2026-01-05',
      body: 'Cost $40.00 is 4.0x the daily average',
    });
  });

  it('refused starts become start-failure notices; other actions none', () => {
    expect(noticeForActionFailure('proxy-start', 'Failed to start proxy: port busy')?.kind).toBe('proxy-start-failed');
    expect(noticeForActionFailure('bridge-start', 'Bridge credentials missing')).toEqual({
      kind: 'bridge-start-failed',
      title: 'Bridge failed to start',
      body: 'Bridge credentials missing',
    });
    expect(noticeForActionFailure('proxy-stop', 'x')).toBeUndefined();
    expect(noticeForActionFailure('usage-refresh', 'x')).toBeUndefined();
  });
});

describe('createNoticeGate', () => {
  const notice = (kind: DesktopNotice['kind'], body: string, title = 't'): DesktopNotice => ({ kind, title, body });

  it('shows a failure kind once per window, however it is worded', () => {
    let now = 0;
    const gate = createNoticeGate(() => now, 10_000);
    expect(gate(notice('proxy-start-failed', 'Failed to start proxy: port busy'))).toBe(true);
    now = 500;
    expect(gate(notice('proxy-start-failed', 'port busy'))).toBe(false);
    expect(gate(notice('bridge-start-failed', 'port busy'))).toBe(true);
    now = 10_500;
    expect(gate(notice('proxy-start-failed', 'port busy'))).toBe(true);
  });

  it('distinct anomalies all show; the same one does not repeat', () => {
    const gate = createNoticeGate(() => 0);
    expect(gate(notice('anomaly', 'a', 'Usage anomaly on 2026-01-01'))).toBe(true);
    expect(gate(notice('anomaly', 'b', 'Usage anomaly on 2026-01-01'))).toBe(true);
    expect(gate(notice('anomaly', 'a', 'Usage anomaly on 2026-01-02'))).toBe(true);
    expect(gate(notice('anomaly', 'a', 'Usage anomaly on 2026-01-01'))).toBe(false);
  });
});
