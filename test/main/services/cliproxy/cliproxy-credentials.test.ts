import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CredentialsStore } from '../../../../main/services/cliproxy/cliproxy-credentials.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

/** proxy/cliproxy/credentials.json: the plaintext secret the binary's config.yaml cannot keep. */
let tmp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => void (tmp = await makeTempDir('cliproxy-creds-')));
afterEach(async () => tmp.cleanup());

const store = () => new CredentialsStore(tmp.dir, path.join(tmp.dir, 'config.yaml'));

describe('CredentialsStore', () => {
  it('creates port, key and secret once (0600), and two first readers get the same ones', async () => {
    const s = store();
    const [a, b] = await Promise.all([s.read(), s.read()]);
    expect(a).toEqual(b);
    expect(a.apiKey).toMatch(/^sb-cliproxy-/);
    expect((await fs.stat(path.join(tmp.dir, 'credentials.json'))).mode & 0o777).toBe(0o600);
    expect(await store().read()).toEqual(a);
  });

  it("keeps an older config.yaml's port, key and plaintext secret, but never a bcrypt hash as the secret", async () => {
    await fs.writeFile(path.join(tmp.dir, 'config.yaml'), "port: 41234\napi-keys: ['sb-cliproxy-old']\nremote-management:\n  secret-key: plain-old\n");
    expect(await store().read()).toEqual({ port: 41234, apiKey: 'sb-cliproxy-old', secret: 'plain-old' });
    await fs.rm(path.join(tmp.dir, 'credentials.json'));
    await fs.writeFile(path.join(tmp.dir, 'config.yaml'), "port: 41234\napi-keys: ['sb-cliproxy-old']\nremote-management:\n  secret-key: $2a$10$abcdefghijklmnopqrstuv\n");
    const fresh = await store().read();
    expect(fresh).toMatchObject({ port: 41234, apiKey: 'sb-cliproxy-old' });
    expect(fresh.secret).not.toMatch(/^\$2/);
  });
});
