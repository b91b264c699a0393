import { describe, expect, it } from 'vitest';
import { desktopPort, startupFailureAction, startupFailureText } from '../../../main/app/boot-rules.js';
import { HomeLockedError } from '../../../main/infra/home-lock.js';

describe('desktopPort', () => {
  it.each([
    [{}, 3000],
    [{ SWITCHBOARD_PORT: '4100' }, 4100],
    [{ SWITCHBOARD_PORT: ' 4100 ' }, 4100],
    [{ SWITCHBOARD_PORT: '0' }, 0],
    [{ SWITCHBOARD_PORT: '70000' }, 3000],
    [{ SWITCHBOARD_PORT: 'abc' }, 3000],
    [{ SWITCHBOARD_PORT: '' }, 3000],
  ])('%o → %i', (env, port) => {
    expect(desktopPort(env)).toBe(port);
  });
});

describe('startupFailureText', () => {
  it('explains a busy port and how to get past it', () => {
    const err = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:3000'), { code: 'EADDRINUSE' });
    const text = startupFailureText(err, 3000);
    expect(text.title).toBe('Switchboard cannot start');
    expect(text.body).toContain('Port 3000 on 127.0.0.1 is already in use');
    expect(text.body).toContain('SWITCHBOARD_PORT');
  });

  it('passes other causes through', () => {
    expect(startupFailureText(new Error('EACCES: permission denied, mkdir'), 3000).body).toBe(
      'The local API did not start: EACCES: permission denied, mkdir',
    );
    expect(startupFailureText('odd', 3000).body).toBe('The local API did not start: odd');
  });
});

describe('startupFailureAction: a second launch on a home in use', () => {
  const owner = { pid: 4242, url: 'http://127.0.0.1:3000', startedAt: 1, argv: [] };
  it('opens the running one (a headless serve has no window to focus) and quits quietly', () => {
    expect(startupFailureAction(new HomeLockedError('/h', owner), 3000)).toEqual({ kind: 'open-running', url: 'http://127.0.0.1:3000/' });
  });

  it('never opens anything but the loopback dashboard', () => {
    expect(startupFailureAction(new HomeLockedError('/h', { ...owner, url: 'https://evil.example' }), 3000).kind).toBe('error-box');
  });

  it('explains an owner that is still starting', () => {
    expect(startupFailureAction(new HomeLockedError('/h', { ...owner, url: null }), 3000)).toEqual({
      kind: 'error-box',
      title: 'Switchboard is already running',
      body: '/h is in use by another Switchboard (pid 4242), still starting. Wait for it to start, or quit it first.',
    });
  });

  it('keeps the busy-port and other texts', () => {
    const busy = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });
    expect(startupFailureAction(busy, 3000)).toEqual({ kind: 'error-box', ...startupFailureText(busy, 3000) });
  });
});
