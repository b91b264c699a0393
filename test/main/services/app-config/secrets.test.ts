import { describe, expect, it } from 'vitest';
import { MASK, maskSecrets, restoreSecrets } from '../../../../main/services/app-config/secrets.js';

const stored = {
  proxy: { auth: { api_key: 'sk-real', management_secret: '', defaults: { api_key: 'sk-default', management_secret: 'mgmt' } } },
  usage: { timezone: 'UTC' },
};

describe('maskSecrets', () => {
  it('masks non-empty secrets only, and does not touch its input', () => {
    const masked = maskSecrets(stored);
    expect(masked.proxy.auth).toEqual({ api_key: MASK, management_secret: '', defaults: { api_key: MASK, management_secret: MASK } });
    expect(masked.usage).toEqual({ timezone: 'UTC' });
    expect(stored.proxy.auth.api_key).toBe('sk-real');
  });
});

describe('restoreSecrets', () => {
  it('puts stored values back where the client sent the mask', () => {
    const restored = restoreSecrets(maskSecrets(stored), stored);
    expect(restored).toEqual(stored);
  });

  it('takes a new value the client typed', () => {
    const next = maskSecrets(stored);
    next.proxy.auth.api_key = 'sk-new-key';
    expect((restoreSecrets(next, stored) as typeof stored).proxy.auth.api_key).toBe('sk-new-key');
  });

  it('keeps stored secrets the client left out, even a whole auth section', () => {
    const restored = restoreSecrets({ proxy: {}, usage: { timezone: 'UTC' } }, stored) as typeof stored;
    expect(restored.proxy.auth).toEqual(stored.proxy.auth);
  });

  it('drops a mask with nothing stored behind it instead of saving the literal mask', () => {
    const restored = restoreSecrets({ proxy: { auth: { api_key: MASK } } }, { proxy: { auth: {} } }) as typeof stored;
    expect(restored.proxy.auth).toEqual({});
  });

  it('leaves a non-object parent for validation to reject', () => {
    expect(restoreSecrets({ proxy: 'oops' }, stored)).toEqual({ proxy: 'oops' });
  });
});
