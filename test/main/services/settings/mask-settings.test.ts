import { describe, expect, it } from 'vitest';
import { MASK } from '../../../../main/services/settings/masking.js';
import { maskSettings, unmaskSettings } from '../../../../main/services/settings/mask-settings.js';

const stored = {
  env: { PROVIDER_AUTH_TOKEN: 'tok-1', PROVIDER_MODEL: 'm' },
  permissions: { allow: ['Bash'] },
  mcp: { servers: [{ name: 'a', auth_token: 'deep-secret', args: ['x'] }], API_KEY: 'top' },
  presets: [{ name: 'p', default: 'm' }],
};

describe('maskSettings: keys outside env by the same rule at any depth', () => {
  it('masks env and every sensitive key below other top-level keys', () => {
    expect(maskSettings(stored)).toEqual({
      env: { PROVIDER_AUTH_TOKEN: MASK, PROVIDER_MODEL: 'm' },
      permissions: { allow: ['Bash'] },
      mcp: { servers: [{ name: 'a', auth_token: MASK, args: ['x'] }], API_KEY: MASK },
      presets: [{ name: 'p', default: 'm' }],
    });
  });

  it('masks a sensitive top-level key whatever its value', () => {
    expect(maskSettings({ env: {}, secret_token: { nested: 'x' } })).toEqual({ env: {}, secret_token: MASK });
  });
});

describe('unmaskSettings', () => {
  it('puts stored values back where the masked form came back, keeps new values', () => {
    const incoming = { ...(maskSettings(stored) as typeof stored), env: { PROVIDER_AUTH_TOKEN: MASK, PROVIDER_MODEL: 'n' } };
    expect(unmaskSettings(incoming, stored)).toEqual({ ...stored, env: { PROVIDER_AUTH_TOKEN: 'tok-1', PROVIDER_MODEL: 'n' } });
  });

  it('drops a mask with nothing stored under it rather than storing the mask', () => {
    expect(unmaskSettings({ env: {}, extra: { password: MASK, keep: 1 } }, { env: {} })).toEqual({ env: {}, extra: { keep: 1 } });
  });
});
