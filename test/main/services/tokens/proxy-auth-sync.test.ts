import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ProxyConfigUnreadableError, writeProxyAuth } from '../../../../main/services/tokens/proxy-auth-sync.js';
import { tempContext, type TempContext } from '../../../helpers/temp-context.js';

let t: TempContext;
let file: string;
beforeEach(async () => {
  t = await tempContext();
  file = t.ctx.paths.proxyConfig;
});
afterEach(() => t.cleanup());

const auth = { apiKey: 'sk-sb-AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHH', managementSecret: 'secret-one-1' };
const now = new Date(Date.UTC(2026, 4, 6, 7, 8, 9, 10));
const backups = async () => (await fs.readdir(t.ctx.paths.backupsDir).catch(() => [] as string[])).sort();

describe('writeProxyAuth', () => {
  it('creates the file with the default shape, mode 0600, in a 0700 proxy dir', async () => {
    expect(await writeProxyAuth(t.ctx.paths, auth, now)).toBe('created');
    expect(YAML.parse(await fs.readFile(file, 'utf8'))).toEqual({
      server: { port: 8317, host: '127.0.0.1' },
      auth: { api_key: auth.apiKey, management_secret: auth.managementSecret },
      providers: {},
      upstreams: [],
    });
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(await backups()).toEqual([]);
  });

  it('does not touch the file (no write, no backup) when the auth keys already match', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const text = `auth:\n  api_key:   "${auth.apiKey}"   # odd spacing stays\n  management_secret: ${auth.managementSecret}\n`;
    await fs.writeFile(file, text);
    const old = new Date(Date.UTC(2025, 0, 1));
    await fs.utimes(file, old, old);
    expect(await writeProxyAuth(t.ctx.paths, auth, now)).toBe('unchanged');
    expect(await fs.readFile(file, 'utf8')).toBe(text);
    expect((await fs.stat(file)).mtimeMs).toBe(old.getTime());
    expect(await backups()).toEqual([]);
  });

  it('changes only the auth values, keeps comments and other keys, and backs the old file up', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const text = '# top comment\nserver:\n  port: 1234\nauth:\n  api_key: old # trailing\n  extra: yes\nmine: [1, 2]\n';
    await fs.writeFile(file, text);
    expect(await writeProxyAuth(t.ctx.paths, auth, now)).toBe('updated');
    const after = await fs.readFile(file, 'utf8');
    expect(after).toContain('# top comment');
    expect(after).toContain('mine: [ 1, 2 ]');
    expect(YAML.parse(after)).toEqual({
      server: { port: 1234 },
      auth: { api_key: auth.apiKey, extra: 'yes', management_secret: auth.managementSecret },
      mine: [1, 2],
    });
    expect(await backups()).toEqual(['proxy-config.20260506T070809010Z.yaml']);
    expect(await fs.readFile(path.join(t.ctx.paths.backupsDir, 'proxy-config.20260506T070809010Z.yaml'), 'utf8')).toBe(text);
  });

  it('replaces an auth entry that is not a map, and fills a document that holds only comments', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, 'auth:\nserver:\n  port: 1\n');
    await writeProxyAuth(t.ctx.paths, auth, now);
    expect(YAML.parse(await fs.readFile(file, 'utf8'))).toEqual({ auth: { api_key: auth.apiKey, management_secret: auth.managementSecret }, server: { port: 1 } });
    await fs.writeFile(file, '# nothing yet\n');
    await writeProxyAuth(t.ctx.paths, auth, now);
    const text = await fs.readFile(file, 'utf8');
    expect(text).toContain('# nothing yet');
    expect(YAML.parse(text)).toEqual({ auth: { api_key: auth.apiKey, management_secret: auth.managementSecret } });
  });

  it('refuses to rewrite a file that is not YAML or not a mapping, leaving it as it was', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    for (const text of ['server: [oops\n', '- a\n- b\n']) {
      await fs.writeFile(file, text);
      await expect(writeProxyAuth(t.ctx.paths, auth, now)).rejects.toBeInstanceOf(ProxyConfigUnreadableError);
      expect(await fs.readFile(file, 'utf8')).toBe(text);
    }
  });
});
