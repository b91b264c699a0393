import { describe, expect, it } from 'vitest';
import { Hangup } from '../../../../../main/engines/proxy-engine/traffic/hangup.js';

describe('Hangup', () => {
  it('runs the stop action once when the client goes, and only the latest one set', () => {
    const hangup = new Hangup();
    const calls: string[] = [];
    hangup.onGone(() => calls.push('first'));
    hangup.onGone(() => calls.push('second'));
    expect(hangup.gone).toBe(false);
    hangup.fire();
    hangup.fire();
    expect(hangup.gone).toBe(true);
    expect(calls).toEqual(['second']);
  });

  it('a cleared action does not run', () => {
    const hangup = new Hangup();
    let ran = false;
    hangup.onGone(() => (ran = true));
    hangup.onGone(undefined);
    hangup.fire();
    expect(ran).toBe(false);
    expect(hangup.gone).toBe(true);
  });

  it('an action set after the client went runs at once (a call started too late still stops)', () => {
    const hangup = new Hangup();
    hangup.fire();
    let runs = 0;
    hangup.onGone(() => runs++);
    hangup.fire();
    expect(runs).toBe(1);
  });
});
