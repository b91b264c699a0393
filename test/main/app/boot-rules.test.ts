import { describe, expect, it } from 'vitest';
import { desktopPort, startupFailureText } from '../../../main/app/boot-rules.js';

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
