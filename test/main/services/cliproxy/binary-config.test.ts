import fs from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountRoutingOf, applyBinaryRouting, binaryRoutingKeys, DEFAULT_ACCOUNT_ROUTING } from '../../../../main/services/cliproxy/binary-config.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

describe('binaryRoutingKeys: Switchboard routing settings → the binary keys', () => {
  it.each([
    [{ account_strategy: 'round-robin', session_affinity: true }, 'round-robin', true],
    [{ account_strategy: 'fill-first', session_affinity: true }, 'fill-first', true],
    [{ account_strategy: 'fill-first', session_affinity: false }, 'fill-first', false],
    [{ account_strategy: 'round-robin', session_affinity: false }, 'round-robin', false],
  ] as const)('%o', (settings, strategy, affinity) => {
    expect(binaryRoutingKeys(settings)).toEqual({
      routing: { strategy, 'session-affinity': affinity, 'session-affinity-ttl': '1h' },
      'disable-cooling': false,
      'max-retry-credentials': 0,
    });
  });
});

describe('accountRoutingOf: proxy/config.yaml text → settings', () => {
  it.each([
    ['no file', null, DEFAULT_ACCOUNT_ROUTING],
    ['no routing', 'server: { port: 8317 }\n', DEFAULT_ACCOUNT_ROUTING],
    ['fill-first without affinity', 'routing:\n  account_strategy: fill-first\n  session_affinity: false\n', { account_strategy: 'fill-first', session_affinity: false }],
    ['an unknown strategy (the engine refuses it too)', 'routing: { account_strategy: fill-last }\n', DEFAULT_ACCOUNT_ROUTING],
    ['broken YAML', 'routing: [\n', DEFAULT_ACCOUNT_ROUTING],
  ] as const)('%s', (_what, text, expected) => {
    expect(accountRoutingOf(text)).toEqual(expected);
  });
});

describe('applyBinaryRouting: the generated config file', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let file: string;
  beforeEach(async () => {
    tmp = await makeTempDir('binary-config-');
    file = path.join(tmp.dir, 'config.yaml');
  });
  afterEach(async () => tmp.cleanup());

  it('sets the keys and keeps port, key and secret', async () => {
    await fs.writeFile(file, 'host: 127.0.0.1\nport: 40123\napi-keys: [k1]\nremote-management: { secret-key: s1 }\nrouting: { strategy: round-robin }\n', { mode: 0o600 });
    expect(await applyBinaryRouting(file, { account_strategy: 'fill-first', session_affinity: false })).toBe(true);
    const doc = YAML.parse(await fs.readFile(file, 'utf8'));
    expect(doc).toMatchObject({ host: '127.0.0.1', port: 40123, 'api-keys': ['k1'], 'remote-management': { 'secret-key': 's1' } });
    expect(doc.routing).toEqual({ strategy: 'fill-first', 'session-affinity': false, 'session-affinity-ttl': '1h' });
    expect(doc['disable-cooling']).toBe(false);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  it('leaves the file alone when the keys already match (no needless reload)', async () => {
    await fs.writeFile(file, 'port: 1\n');
    expect(await applyBinaryRouting(file, DEFAULT_ACCOUNT_ROUTING)).toBe(true);
    const { mtimeMs } = await fs.stat(file);
    expect(await applyBinaryRouting(file, DEFAULT_ACCOUNT_ROUTING)).toBe(false);
    expect((await fs.stat(file)).mtimeMs).toBe(mtimeMs);
  });

  it('writes nothing when there is no generated config yet, or it is not a mapping', async () => {
    expect(await applyBinaryRouting(file, DEFAULT_ACCOUNT_ROUTING)).toBe(false);
    await expect(fs.access(file)).rejects.toThrow();
    await fs.writeFile(file, '- a list\n');
    expect(await applyBinaryRouting(file, DEFAULT_ACCOUNT_ROUTING)).toBe(false);
    expect(await fs.readFile(file, 'utf8')).toBe('- a list\n');
  });
});
