import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderAccountsService } from '../../../../main/services/accounts/accounts-service.js';
import { REFRESH_ON_401_DEBOUNCE_MS } from '../../../../main/services/accounts/refresh-on-401.js';
import type { AppEventMap } from '../../../../main/services/events.js';
import { overridesYaml, startFakeAccountProviders, type FakeAccountProviders } from '../../../fixtures/fake-account-providers.js';
import { freePort } from '../../../helpers/free-port.js';
import { tempContext, type TempContext } from '../../../helpers/temp-context.js';

let t: TempContext;
let fake: FakeAccountProviders;
let service: ProviderAccountsService;

beforeEach(async () => {
  t = await tempContext();
  fake = await startFakeAccountProviders();
  t.ctx.env = { HOME: t.home };
  await fs.writeFile(t.ctx.paths.appConfig, overridesYaml(fake.origin));
  await fs.mkdir(t.ctx.paths.proxyDir, { recursive: true });
  await fs.writeFile(t.ctx.paths.proxyConfig, `providers:\n  codex:\n    oauth_port: ${await freePort()}\n`);
  service = new ProviderAccountsService(t.ctx, { pollFloorMs: 5 });
});
afterEach(async () => {
  await service.stop();
  await fake.close();
  await t.cleanup();
});

const refreshes = () => fake.requests.filter((r) => r.path === '/oauth/token' && r.body.includes('grant_type=refresh_token')).length;

async function signInCodex(): Promise<{ file: string; email: string }> {
  const start = await service.signIn('codex', 'paste');
  const res = await fetch(start.url, { redirect: 'manual' });
  const state = await service.signInCallback(start.signInId, res.headers.get('location')!);
  expect(state.status).toBe('ok');
  return { file: path.join(t.ctx.paths.proxyAuthDir, state.account!.file), email: state.account!.email! };
}

/** A finished request as the engine's feed reports it (only the fields the watcher reads matter). */
function entry(status: number, account: string | null, upstream = 'codex'): AppEventMap['proxy-request'] {
  // The rest of a RequestLogEntry is irrelevant here; the cast names that instead of building it.
  return { status, upstream, account, error: status === 401 ? 'codex: the account was signed out by the provider: sign in again' : null } as unknown as AppEventMap['proxy-request'];
}

async function until(ok: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition not reached');
}

describe('refresh once after a 401 the engine reports (issue 29.1)', () => {
  it('a 401 on the request feed refreshes that account\'s file once; a burst of 401s refreshes once; later ones after the debounce again', async () => {
    const { file, email } = await signInCodex();
    const token = () => fs.readFile(file, 'utf8').then((text) => String(JSON.parse(text).access_token));
    const before = await token();
    service.start();
    t.ctx.events.emit('proxy-request', entry(401, email));
    await until(async () => refreshes() === 1 && (await token()) !== before);
    const after = await token();
    // A burst: three more 401s of the same account within the debounce window refresh nothing more.
    await Promise.all([service.on401.seen(entry(401, email)), service.on401.seen(entry(401, email)), service.on401.seen(entry(401, email))]);
    expect(refreshes()).toBe(1);
    expect(await token()).toBe(after);
    t.clock.advance(REFRESH_ON_401_DEBOUNCE_MS + 1);
    await service.on401.seen(entry(401, email));
    expect(refreshes()).toBe(2);
    expect(await token()).not.toBe(after);
  });

  it('nothing is refreshed for a success, a 401 of an API-key upstream (no account), an unknown account, or another provider\'s upstream', async () => {
    const { email } = await signInCodex();
    await service.on401.seen(entry(200, email));
    await service.on401.seen(entry(429, email));
    await service.on401.seen(entry(401, null, 'glm'));
    await service.on401.seen(entry(401, 'someone-else@example.com'));
    await service.on401.seen(entry(401, email, 'ghcp'));
    expect(refreshes()).toBe(0);
  });

  it('after stop() the feed no longer refreshes', async () => {
    const { email } = await signInCodex();
    service.start();
    await service.stop();
    t.ctx.events.emit('proxy-request', entry(401, email));
    await new Promise((r) => setImmediate(r));
    await service.on401.seen(entry(200, email)); // let any started work settle
    expect(refreshes()).toBe(0);
  });
});
