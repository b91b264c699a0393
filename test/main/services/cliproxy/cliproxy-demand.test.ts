import { describe, expect, it } from 'vitest';
import { CliproxyDemand, type CliproxyDemandDeps } from '../../../../main/services/cliproxy/cliproxy-demand.js';
import { AppEvents } from '../../../../main/services/events.js';
import { silentLogger } from '../../../../main/infra/logger.js';

/** The lazy start's rule (decisions §4.1), with the app's parts replaced by flags. */
function setup(state: { proxy: boolean; account: boolean; installed: boolean; failStart?: boolean; ownBinary?: boolean }) {
  const events = new AppEvents();
  const starts: number[] = [];
  const installed = new Set<() => void>();
  const warnings: string[] = [];
  const deps: CliproxyDemandDeps = {
    events,
    logger: { ...silentLogger, warn: (m: string) => void warnings.push(m) },
    proxyRunning: () => state.proxy,
    builtinEngine: async () => !state.ownBinary,
    accountNeedsBinary: async () => state.account,
    isInstalled: async () => state.installed,
    onInstalled: (listener) => {
      installed.add(listener);
      return () => installed.delete(listener);
    },
    ensureRunning: async () => {
      starts.push(starts.length + 1);
      if (state.failStart) throw new Error('CLIProxyAPI exited during start (code 1)');
    },
  };
  const demand = new CliproxyDemand(deps);
  demand.start();
  const install = () => installed.forEach((l) => l());
  return { events, demand, starts, warnings, install };
}

const running = { state: 'running', running: true, port: 8317 };

describe('CliproxyDemand: the managed binary starts when an account needs it, and not otherwise', () => {
  it('starts it when the proxy comes up with an active agy/kiro/gemini account and the binary installed', async () => {
    const { events, demand, starts } = setup({ proxy: true, account: true, installed: true });
    events.emit('proxy-state', { state: 'starting', running: false });
    await demand.settled();
    expect(starts).toEqual([]);
    events.emit('proxy-state', running);
    await demand.settled();
    expect(starts).toEqual([1]);
  });

  it('never starts it without such an account, without an install, or while the proxy is stopped', async () => {
    for (const state of [
      { proxy: true, account: false, installed: true },
      { proxy: true, account: true, installed: false },
      { proxy: false, account: true, installed: true },
      // the running proxy is the user's own binary (proxy.binary_path): nothing forwards to ours
      { proxy: true, account: true, installed: true, ownBinary: true },
    ]) {
      const { events, demand, starts } = setup(state);
      events.emit('proxy-state', running);
      events.emit('account', { reason: 'signed-in', provider: 'kiro' });
      await demand.settled();
      expect(starts, JSON.stringify(state)).toEqual([]);
    }
  });

  it('starts it when an agy, kiro or gemini account is signed in, imported or resumed while the proxy runs; codex and pauses do not', async () => {
    const { events, demand, starts } = setup({ proxy: true, account: true, installed: true });
    events.emit('account', { reason: 'signed-in', provider: 'codex' });
    events.emit('account', { reason: 'paused', provider: 'agy' });
    events.emit('account', { reason: 'sign-in', provider: 'agy', status: 'waiting' });
    await demand.settled();
    expect(starts).toEqual([]);
    events.emit('account', { reason: 'signed-in', provider: 'gemini' });
    events.emit('account', { reason: 'resumed', provider: 'agy' });
    await demand.settled();
    expect(starts).toEqual([1, 2]); // ensureRunning is idempotent; the checks ran one after the other
  });

  it('starts it when the binary is installed while the proxy runs and an account waits', async () => {
    const state = { proxy: true, account: true, installed: false };
    const { events, demand, starts, install } = setup(state);
    events.emit('proxy-state', running);
    await demand.settled();
    expect(starts).toEqual([]);
    state.installed = true;
    install();
    await demand.settled();
    expect(starts).toEqual([1]);
  });

  it('a failed start is logged, not thrown, and stop() unsubscribes', async () => {
    const { events, demand, starts, warnings } = setup({ proxy: true, account: true, installed: true, failStart: true });
    events.emit('proxy-state', running);
    await demand.settled();
    expect(warnings).toEqual(['CLIProxyAPI was not started for the accounts that need it: CLIProxyAPI exited during start (code 1)']);
    demand.stop();
    events.emit('proxy-state', running);
    await demand.settled();
    expect(starts).toEqual([1]);
  });
});
