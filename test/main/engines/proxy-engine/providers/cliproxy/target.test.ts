import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCliproxyAccount } from '../../../../../../main/engines/proxy-engine/providers/cliproxy/auth-file.js';
import { cliproxyExpectedUp, readCliproxyTarget } from '../../../../../../main/engines/proxy-engine/providers/cliproxy/target.js';
import { makeTempDir } from '../../../../../helpers/temp-dir.js';

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('sb-cliproxy-target-'));
  await fs.mkdir(path.join(dir, 'cliproxy'));
});
afterAll(async () => cleanup?.());

const config = (text: string) => fs.writeFile(path.join(dir, 'cliproxy', 'config.yaml'), text);

describe('readCliproxyTarget: the binary’s port and key from its generated config', () => {
  it('reads port and api-keys[0]', async () => {
    await config('host: 127.0.0.1\nport: 41234\napi-keys:\n  - sb-cliproxy-one\n  - sb-cliproxy-two\nremote-management:\n  secret-key: s\n');
    expect(await readCliproxyTarget(dir)).toEqual({ port: 41234, apiKey: 'sb-cliproxy-one' });
  });

  it.each([
    ['no port', 'api-keys: [k]\n'],
    ['a port that is text', 'port: "41234"\napi-keys: [k]\n'],
    ['a port out of range', 'port: 70000\napi-keys: [k]\n'],
    ['no keys', 'port: 41234\napi-keys: []\n'],
    ['a key that is not text', 'port: 41234\napi-keys: [12]\n'],
    ['not YAML', 'port: [unclosed\n'],
    ['a list', '- 1\n'],
  ])('is undefined for %s', async (_what, text) => {
    await config(text);
    expect(await readCliproxyTarget(dir)).toBeUndefined();
  });

  it('is undefined when the config was never written', async () => {
    expect(await readCliproxyTarget(path.join(dir, 'nowhere'))).toBeUndefined();
  });
});

describe('cliproxyExpectedUp: whether a refused connection is worth waiting out', () => {
  it('only with the state file or a fresh starting marker', async () => {
    const starting = path.join(dir, 'cliproxy', 'starting.json');
    const now = Date.now();
    expect(await cliproxyExpectedUp(dir, now)).toBe(false);
    await fs.writeFile(starting, JSON.stringify({ since: now - 1_000 }));
    expect(await cliproxyExpectedUp(dir, now)).toBe(true);
    await fs.writeFile(starting, JSON.stringify({ since: now - 61_000 })); // a crashed app's leftover
    expect(await cliproxyExpectedUp(dir, now)).toBe(false);
    await fs.writeFile(starting, 'not json');
    expect(await cliproxyExpectedUp(dir, now)).toBe(false);
    await fs.rm(starting);
    await fs.writeFile(path.join(dir, 'cliproxy', 'state.json'), '{"pid":1}');
    expect(await cliproxyExpectedUp(dir, now)).toBe(true);
  });
});

describe('parseCliproxyAccount', () => {
  it('tells agy, kiro and gemini by the file’s type, and nothing else', () => {
    expect(parseCliproxyAccount('antigravity-a.json', { type: 'antigravity', email: 'a@x' })).toEqual({ provider: 'agy', ref: { file: 'antigravity-a.json', email: 'a@x', token: '' } });
    expect(parseCliproxyAccount('kiro-k.json', { type: 'kiro' })?.provider).toBe('kiro');
    expect(parseCliproxyAccount('gemini-g.json', { type: 'gemini' })?.ref.email).toBe('gemini-g.json');
    for (const type of ['codex', 'iflow', 'constructor', 'toString', '__proto__', 7, undefined]) {
      expect(parseCliproxyAccount('x.json', { type })).toBeUndefined();
    }
  });
});
