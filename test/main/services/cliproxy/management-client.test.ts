import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagementClient, ManagementError } from '../../../../main/services/cliproxy/management-client.js';

/** The client of the binary's /v0/management/* against a small local server: header, errors, timeout. */
let server: http.Server;
let port: number;
const seen: Array<{ method?: string; url?: string; auth?: string; body: string }> = [];
const hung = new Set<http.ServerResponse>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, body });
      const answer = (status: number, json: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      if (req.url?.startsWith('/v0/management/hang')) return void hung.add(res);
      if (req.headers.authorization !== 'Bearer right') return answer(401, { error: 'invalid management key' });
      if (req.url?.startsWith('/v0/management/off')) return answer(403, { error: 'remote management disabled' });
      if (req.url?.startsWith('/v0/management/boom')) return answer(500, { error: 'failed to update auth: disk full' });
      if (req.url?.startsWith('/v0/management/auth-files')) return answer(200, { status: 'ok' });
      answer(404, { error: 'not found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const res of hung) res.destroy();
  await new Promise<void>((r) => server.close(() => r()));
});

const client = (secret = 'right') => new ManagementClient(async () => ({ port, secret }));

describe('ManagementClient', () => {
  it('sends the secret as a Bearer header, the query encoded and a JSON body', async () => {
    await client().request('PATCH', 'auth-files/fields', { body: { name: 'kiro-a.json', priority: 3 }, query: { name: 'a b&c', skip: undefined } });
    expect(seen.at(-1)).toEqual({ method: 'PATCH', url: '/v0/management/auth-files/fields?name=a+b%26c', auth: 'Bearer right', body: '{"name":"kiro-a.json","priority":3}' });
  });

  it.each([
    ['wrong key', 'wrong', 'auth-files', 401, /refused Switchboard's management key \("invalid management key"\)/],
    ['management off', 'right', 'off', 403, /management routes are turned off \("remote management disabled"\)/],
    ['route missing', 'right', 'kiro-auth-url', 404, /no management route kiro-auth-url .*may not support it/],
    ['other failure', 'right', 'boom', 500, /answered 500 to boom \("failed to update auth: disk full"\)/],
  ])('%s: a ManagementError with status %#', async (_name, secret, route, status, text) => {
    const err = await client(secret).get(route).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ManagementError);
    expect(err).toMatchObject({ status, message: expect.stringMatching(text) });
  });

  it('gives up after the timeout, and names what it waited for', async () => {
    const err = await client().get('hang', { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 0, message: 'CLIProxyAPI did not answer GET /v0/management/hang within 0.2 s' });
  });

  it('says when nothing listens, and refuses a port that is not one', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const err = await new ManagementClient(async () => ({ port: freePort, secret: 'x' })).get('auth-files').catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 0, message: expect.stringContaining(`could not be reached on 127.0.0.1:${freePort}`) });
    await expect(new ManagementClient(async () => ({ port: 70000, secret: 'x' })).get('auth-files')).rejects.toThrow('no valid port');
  });
});
