import { describe, expect, it } from 'vitest';
import { checkCallback } from '../../../../main/services/accounts/callback-check.js';

const q = (s: string) => new URLSearchParams(s);

describe('checkCallback (what one loopback or pasted callback is)', () => {
  it.each([
    ['a second callback after the sign-in ended', 'ok', 'code=c&state=s', 409],
    ['one while the first is being exchanged', 'being completed', 'code=c&state=s', 409],
    ['the wrong state', null, 'code=c&state=other', 400],
    ['no state at all', null, 'code=c', 400],
    ['no code', null, 'state=s', 400],
  ] as const)('refuses %s', (_name, handled, params, status) => {
    const decision = checkCallback('s', handled, q(params));
    expect(decision).toMatchObject({ kind: 'refuse', outcome: { ok: false, status } });
  });

  it('a device-code sign-in expects no callback', () => {
    expect(checkCallback(undefined, null, q('code=c&state=s'))).toMatchObject({ kind: 'refuse', outcome: { status: 400, title: 'No callback expected' } });
  });

  it("the provider's refusal carries its reason; a good callback carries the code", () => {
    expect(checkCallback('s', null, q('error=access_denied&error_description=user+said+no&state=s'))).toMatchObject({ kind: 'provider-error', reason: 'access_denied: user said no' });
    // A refusal without our state is not the provider's: it is refused like any stray request.
    expect(checkCallback('s', null, q('error=access_denied&state=x'))).toMatchObject({ kind: 'refuse' });
    expect(checkCallback('s', null, q('code=abc&state=s'))).toEqual({ kind: 'code', code: 'abc' });
  });
});
