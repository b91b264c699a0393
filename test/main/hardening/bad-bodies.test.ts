import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E } from '../../../main/api/error-texts.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

/**
 * Bodies that parse but cannot be used: JSON nested far deeper than any real request, and YAML
 * the library refuses late (undefined aliases, alias bombs, absurd nesting). Each answers 400 with
 * the documented error, and nothing is stored. Before the fix these answered 500, and a deep
 * agent-tool settings body was stored so that every later GET answered 500.
 */

const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const TOO_DEEP = 'JSON nested deeper than 64 levels';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

async function send(method: string, url: string, body: string) {
  const res = await app.request(method, url, body);
  return { status: res.status, body: (await res.json()) as { error: string; message?: string } };
}

describe('JSON nested 6,000 levels deep', () => {
  it('PUT /api/settings/:profile answers 400 and creates no profile', async () => {
    const res = await send('PUT', '/api/settings/deep', `{"settings":{"env":{},"x":${deepObject(6000)}}}`);
    expect(res).toEqual({ status: 400, body: { error: E.invalidJson, message: TOO_DEEP } });
    expect((await app.json('GET', '/api/settings/deep')).status).toBe(404);
  });

  it('PUT /api/config answers 400 and leaves config.yaml as it was', async () => {
    const before = await fs.readFile(path.join(app.home, 'config.yaml'), 'utf8');
    const { body: current } = await app.json('GET', '/api/config');
    const config = JSON.stringify(current.config);
    const res = await send('PUT', '/api/config', `{"config":${config.slice(0, -1)},"x":${deepObject(6000)}}}`);
    expect(res).toEqual({ status: 400, body: { error: E.invalidJson, message: TOO_DEEP } });
    expect(await fs.readFile(path.join(app.home, 'config.yaml'), 'utf8')).toBe(before);
  });

  it('PUT /api/agent-tool/settings refuses deep content, and GET keeps answering 200', async () => {
    const res = await send('PUT', '/api/agent-tool/settings', JSON.stringify({ content: deepObject(6000) }));
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(E.invalidSettingsJson);
    expect(res.body.message).toBe(TOO_DEEP);
    const after = await app.json('GET', '/api/agent-tool/settings');
    expect(after.status).toBe(200);
    expect(after.body.exists).toBe(false);
  });

  it('a deep agent-tool settings file written by hand reads as a parse error, not a 500', async () => {
    const file = path.join(app.home, '.factory', 'settings.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, deepObject(6000));
    const res = await app.json('GET', '/api/agent-tool/settings');
    expect(res.status).toBe(200);
    expect(res.body.parseError).toBe(TOO_DEEP);
    await fs.rm(file);
  });

  it('a deep profile settings file written by hand answers the damaged-file error, not a crash', async () => {
    await fs.writeFile(path.join(app.home, 'handmade.settings.json'), `{"env":{},"x":${deepObject(6000)}}`);
    const res = await app.json('GET', '/api/settings/handmade');
    expect(res.status).toBe(500);
    expect(res.body.error).toBe(E.readSettingsFailed);
    expect(res.body.message).toContain(TOO_DEEP);
  });

  it('64 levels in all are accepted', async () => {
    // body {settings:{env:{}, x:…}}: two levels around x, so x may nest 62 deep.
    const res = await app.request('PUT', '/api/settings/shallow', `{"settings":{"env":{},"x":${deepObject(62)}}}`);
    expect(res.status).toBe(200);
    const over = await send('PUT', '/api/settings/shallow', `{"settings":{"env":{},"x":${deepObject(63)}}}`);
    expect(over.status).toBe(400);
  });
});

describe('YAML the library refuses on PUT /api/proxy/config.yaml', () => {
  const billionLaughs = ['a: &a [x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefg'[i]}`).join(', ')}]`)].join('\n');
  it.each([
    ['an undefined alias', 'server:\n  port: *undefined_alias\n', /Unresolved alias.*undefined_alias/],
    ['an alias bomb (billion laughs)', billionLaughs, /alias count/i],
    ['6,000 nested flow sequences', `x: ${'['.repeat(6000)}${']'.repeat(6000)}`, /.+/],
    ['data nested 100 deep', `x: ${'['.repeat(100)}${']'.repeat(100)}`, /nested deeper than 64 levels/],
    ['a syntax error', 'server: [1, 2\n', /.+/],
    ['a tab indentation', 'server:\n\tport: 1\n', /.+/],
  ])('%s: 400 Invalid YAML with the library message, file untouched', async (_name, content, message) => {
    const file = path.join(app.home, 'proxy', 'config.yaml');
    const before = await fs.readFile(file, 'utf8').catch(() => null);
    const res = await send('PUT', '/api/proxy/config.yaml', JSON.stringify({ content }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(E.invalidYaml);
    expect(res.body.message).toMatch(message);
    expect(await fs.readFile(file, 'utf8').catch(() => null)).toBe(before);
  });
});
