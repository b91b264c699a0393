import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bridgeSectionSchema } from '../../../../main/services/app-config/schema.js';
import { bridgeEnv, writeClientProfile } from '../../../../main/services/bridge/client-profile.js';

const settings = (patch: Record<string, unknown> = {}) => bridgeSectionSchema.parse(patch);

describe('the bridge client profile (cursor.settings.json)', () => {
  it('writes the daemon address, token, model and only the tier overrides that are set', () => {
    expect(bridgeEnv(settings({ model: 'gpt-5', opus_model: ' claude-4.1-opus ', haiku_model: '' }), 20129, 'tok')).toEqual({
      PROVIDER_BASE_URL: 'http://127.0.0.1:20129',
      PROVIDER_AUTH_TOKEN: 'tok',
      PROVIDER_MODEL: 'gpt-5',
      PROVIDER_DEFAULT_OPUS_MODEL: 'claude-4.1-opus',
    });
  });

  it('keeps what the user added to the file and replaces only the keys the bridge owns', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-client-profile-'));
    const file = path.join(dir, 'cursor.settings.json');
    await fs.writeFile(file, JSON.stringify({ env: { PROVIDER_MODEL: 'old', MY_FLAG: '1' }, permissions: { allow: ['Bash'] } }));
    await writeClientProfile(file, settings(), 20200, 'secret-token');
    const written = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(written).toEqual({
      env: { PROVIDER_MODEL: 'claude-4.5-sonnet', MY_FLAG: '1', PROVIDER_BASE_URL: 'http://127.0.0.1:20200', PROVIDER_AUTH_TOKEN: 'secret-token' },
      permissions: { allow: ['Bash'] },
    });
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    await fs.writeFile(file, '{ damaged');
    await writeClientProfile(file, settings(), 20200, 'secret-token');
    expect(JSON.parse(await fs.readFile(file, 'utf8')).env.PROVIDER_AUTH_TOKEN).toBe('secret-token');
    await fs.rm(dir, { recursive: true });
  });
});
