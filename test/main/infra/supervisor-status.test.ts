import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../main/infra/logger.js';
import type { SupervisorStatus } from '../../../main/infra/process-supervisor.js';
import { SupervisorStatusCell } from '../../../main/infra/supervisor-status.js';

function cell(onChange?: (s: SupervisorStatus) => void) {
  const lines: string[] = [];
  const logger = createLogger('debug', (line) => lines.push(line));
  return { cell: new SupervisorStatusCell('proxy', logger, onChange), lines };
}

describe('SupervisorStatusCell', () => {
  it('starts stopped, merges patches, and drops fields patched to undefined', () => {
    const heard: SupervisorStatus[] = [];
    const { cell: c } = cell((s) => heard.push(s));
    expect(c.snapshot()).toEqual({ state: 'stopped' });
    c.set({ state: 'running', pid: 42, port: 8317, startedAt: 1000 });
    c.set({ state: 'stopped', pid: undefined, port: undefined, startedAt: undefined });
    expect(Object.keys(c.snapshot())).toEqual(['state']);
    expect(heard).toEqual([{ state: 'running', pid: 42, port: 8317, startedAt: 1000 }, { state: 'stopped' }]);
  });

  it('hands out copies, so a caller cannot change the state through them', () => {
    const heard: SupervisorStatus[] = [];
    const { cell: c } = cell((s) => heard.push(s));
    c.set({ state: 'failed', lastExit: { code: 1, signal: null, at: 5, expected: false } });
    const snap = c.snapshot();
    snap.state = 'running';
    snap.lastExit!.code = 99;
    heard[0]!.lastExit!.expected = true;
    expect(c.value).toEqual({ state: 'failed', lastExit: { code: 1, signal: null, at: 5, expected: false } });
  });

  it('logs a listener that throws and still applies the change', () => {
    const { cell: c, lines } = cell(() => {
      throw new Error('tray gone');
    });
    c.set({ state: 'starting' });
    expect(c.value.state).toBe('starting');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('error proxy: state listener failed: tray gone');
  });

  it('stops telling the listener once muted, but keeps tracking the state', () => {
    const heard: SupervisorStatus[] = [];
    const { cell: c } = cell((s) => heard.push(s));
    c.set({ state: 'running', pid: 7 });
    c.mute();
    c.set({ state: 'failed', pid: undefined });
    expect(heard).toEqual([{ state: 'running', pid: 7 }]);
    expect(c.snapshot()).toEqual({ state: 'failed' });
  });
});
