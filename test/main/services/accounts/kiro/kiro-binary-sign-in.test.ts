import { describe, expect, it } from 'vitest';
import { checkKiroOptions, kiroAuthQuery, parseKiroStatus } from '../../../../../main/services/accounts/kiro/kiro-binary-sign-in.js';

/** The binary's get-auth-status convention (reference accounts.md §1) and the IdC inputs. */
describe('parseKiroStatus', () => {
  it.each([
    [{ status: 'wait' }, { kind: 'wait' }],
    [{ status: 'ok' }, { kind: 'ok' }],
    // The device code arrives as an "error" while the flow is still pending.
    [{ status: 'error', error: 'device_code|https://view.awsapps.com/start/#/device?user_code=ABCD-EFGH|ABCD-EFGH' }, { kind: 'code', url: 'https://view.awsapps.com/start/#/device?user_code=ABCD-EFGH', userCode: 'ABCD-EFGH' }],
    [{ status: 'error', error: 'Token creation failed' }, { kind: 'error', message: 'Token creation failed' }],
    [{ status: 'error', error: 'device_code|' }, { kind: 'error', message: 'device_code|' }],
    [{ status: 'error', error: 'auth_url|https://prod.us-east-1.auth.desktop.kiro.dev/login' }, { kind: 'error', message: 'auth_url|https://prod.us-east-1.auth.desktop.kiro.dev/login' }],
    [{ status: 'error' }, { kind: 'error', message: 'CLIProxyAPI reported the sign-in as "error"' }],
    [null, { kind: 'error', message: expect.stringContaining('not an object') }],
  ])('%j → %j', (body, expected) => {
    expect(parseKiroStatus(body)).toEqual(expected);
  });
});

describe('checkKiroOptions and kiroAuthQuery', () => {
  it('Builder ID takes no start URL or region and asks the binary for method=aws', () => {
    expect(kiroAuthQuery(checkKiroOptions({ method: 'device' }))).toEqual({ is_webui: 'true', method: 'aws' });
    expect(() => checkKiroOptions({ method: 'device', region: 'us-east-1' })).toThrow('belong to method "idc"');
  });

  it('IdC: an https start URL without query (trailing slash dropped), region defaulting to us-east-1', () => {
    expect(kiroAuthQuery(checkKiroOptions({ method: 'idc', startUrl: ' https://d-123.awsapps.com/start/ ' }))).toEqual({ is_webui: 'true', method: 'idc', start_url: 'https://d-123.awsapps.com/start', region: 'us-east-1' });
    expect(checkKiroOptions({ method: 'idc', startUrl: 'https://x.awsapps.com/start', region: 'US-GOV-WEST-1' }).region).toBe('us-gov-west-1');
  });

  it.each([[undefined], [''], ['ftp://x/start'], ['http://x.awsapps.com/start'], ['https://u:p@x.awsapps.com/start'], ['https://x.awsapps.com/start#frag'], [`https://x.com/${'a'.repeat(600)}`]])('refuses start URL %j', (startUrl) => {
    expect(() => checkKiroOptions({ method: 'idc', startUrl })).toThrow(expect.objectContaining({ code: 'invalid-sign-in-options' }));
  });

  it.each([['mars'], ['us-east-1.evil.com'], ['us_east_1'], ['']])('refuses region %j', (region) => {
    expect(() => checkKiroOptions({ method: 'idc', startUrl: 'https://x.awsapps.com/start', region })).toThrow(expect.objectContaining({ code: 'invalid-sign-in-options' }));
  });
});
