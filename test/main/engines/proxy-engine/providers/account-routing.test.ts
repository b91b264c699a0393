import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeChatGptBackend, textAnswer, usageLimitAnswer, type FakeChatGptBackend } from '../../../../fixtures/fake-chatgpt-backend.js';
import { startEngineProcess, type EngineProcess } from '../../../../fixtures/proxy-engine-process.js';
import { makeTempDir } from '../../../../helpers/temp-dir.js';
import type { AccountView } from '../../../../../main/services/accounts/account-view.js';
import { engineCooling, withCooling } from '../../../../../main/services/accounts/engine-cooling.js';

// Three codex accounts against the fake ChatGPT backend, in a real engine process per strategy:
// fill-first with the auth files' priority as drain order, round-robin with session affinity.

const KEY = 'sk-sb-proxy-client-key-0123456789';
const SECRET = 'engine-management-secret-0123456789';

let cleanup: () => Promise<void>;
let root: string;
let backend: FakeChatGptBackend;
let fillFirst: EngineProcess;
let roundRobin: EngineProcess;

function codexFile(name: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ type: 'codex', access_token: `at-${name}`, refresh_token: `rt-${name}`, account_id: `acct-${name}`, email: `${name}@example.com`, ...extra });
}

/** An engine over its own auth dir with alice, bob and carol signed in (`priority` per account). */
async function engineWith(name: string, routing: string, priorities: Record<string, number>): Promise<EngineProcess> {
  const dir = path.join(root, name);
  await fs.mkdir(path.join(dir, 'auth'), { recursive: true, mode: 0o700 });
  for (const who of ['alice', 'bob', 'carol']) {
    const extra = priorities[who] === undefined ? {} : { priority: priorities[who] };
    await fs.writeFile(path.join(dir, 'auth', `codex-${who}@example.com-plus.json`), codexFile(who, extra));
  }
  return startEngineProcess(
    dir,
    `
server: { port: {{PORT}}, host: 127.0.0.1 }
auth: { api_key: ${KEY}, management_secret: ${SECRET} }
routing: { cooldown_seconds: 30, first_byte_timeout_seconds: 10, ${routing} }
`,
    dir,
    { SWITCHBOARD_ORIGIN_OVERRIDES: JSON.stringify({ 'https://chatgpt.com': backend.origin }) },
  );
}

beforeAll(async () => {
  ({ dir: root, cleanup } = await makeTempDir('sb-account-routing-'));
  backend = await startFakeChatGptBackend();
  // bob first (priority 5), then alice and carol (0, by file name).
  [fillFirst, roundRobin] = await Promise.all([engineWith('fill', 'account_strategy: fill-first', { bob: 5 }), engineWith('rr', 'account_strategy: round-robin', {})]);
});

afterAll(async () => {
  await fillFirst?.stop();
  await roundRobin?.stop();
  await backend?.close();
  await cleanup?.();
});

beforeEach(() => {
  backend.seen.length = 0;
  backend.respond = () => textAnswer('ok');
});

/** One whole Claude Code–shaped request of `session` (its id in metadata.user_id); the account that served it. */
async function ask(engine: EngineProcess, session: string): Promise<string> {
  const before = backend.seen.length;
  const res = await fetch(`${engine.base}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({
      model: 'gpt-5.4',
      max_tokens: 1000,
      metadata: { user_id: JSON.stringify({ device_id: 'dev', account_uuid: '', session_id: session }) },
      messages: [{ role: 'user', content: 'hi' }],
    }),
  });
  expect(res.status).toBe(200);
  await res.json();
  const served = backend.seen.slice(before).at(-1)!;
  return String(served.headers.authorization).replace('Bearer at-', '');
}

async function cooling(engine: EngineProcess): Promise<Array<Record<string, unknown>>> {
  const res = await fetch(`${engine.base}/v0/management/accounts`, { headers: { authorization: `Bearer ${SECRET}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { accounts: Array<Record<string, unknown>> }).accounts;
}

describe('fill-first with the auth files’ priority as drain order', () => {
  it('drains the highest-priority account for every session, then the next when it cools down, and reports the cooling one', async () => {
    const first = [];
    for (let i = 0; i < 3; i++) first.push(await ask(fillFirst, `ff-session-${i}`));
    expect(first).toEqual(['bob', 'bob', 'bob']);
    expect(await cooling(fillFirst)).toEqual([]);

    backend.seen.length = 0;
    backend.respond = (req) => (req.headers.authorization === 'Bearer at-bob' ? usageLimitAnswer(3600) : textAnswer('ok'));
    const t0 = Date.now();
    const after = [];
    for (let i = 0; i < 3; i++) after.push(await ask(fillFirst, `ff-session-${i}`));
    // bob's quota answer moved the first request on; alice (next by file name) takes all of it.
    expect(after).toEqual(['alice', 'alice', 'alice']);
    expect(backend.seen.filter((r) => r.headers.authorization === 'Bearer at-bob')).toHaveLength(1);

    const rows = await cooling(fillFirst);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ provider: 'codex', file: 'codex-bob@example.com-plus.json', email: 'bob@example.com', reason: 'quota exhausted' });
    const until = Date.parse(String(rows[0]!.coolingUntil));
    expect(until).toBeGreaterThanOrEqual(t0 + 3590_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 3600_000);
  });

  it('the app’s account list reads the resting account from the engine: "quota exhausted until …"', async () => {
    const view = (file: string): AccountView => ({ provider: 'codex', accountId: file, email: null, label: file, status: 'active', expiresAt: null, lastRefresh: null, models: [], file, priority: 0 });
    const cooling = await engineCooling(() => ({ baseUrl: fillFirst.base, secret: SECRET }));
    const [bob, alice] = withCooling([view('codex-bob@example.com-plus.json'), view('codex-alice@example.com-plus.json')], cooling, Date.now());
    expect(bob).toMatchObject({ coolingReason: 'quota exhausted', coolingUntil: expect.any(Number) });
    expect(bob!.coolingUntil!).toBeGreaterThan(Date.now() + 3500_000);
    expect(alice).not.toHaveProperty('coolingUntil');
    // A wrong secret, a stopped engine or no engine: nothing is resting that the app knows of, and no error.
    expect((await engineCooling(() => ({ baseUrl: fillFirst.base, secret: 'wrong' }))).size).toBe(0);
    expect((await engineCooling(() => ({ baseUrl: 'http://127.0.0.1:9', secret: SECRET }))).size).toBe(0);
    expect((await engineCooling(() => null)).size).toBe(0);
    // A rest that has ended is not shown.
    expect(withCooling([view('codex-bob@example.com-plus.json')], cooling, Date.now() + 7200_000)[0]).not.toHaveProperty('coolingUntil');
  });

  it('picks up a changed priority from the auth file', async () => {
    const file = path.join(root, 'fill', 'auth', 'codex-carol@example.com-plus.json');
    await fs.writeFile(file, codexFile('carol', { priority: 9 }));
    // The engine re-reads the auth files at most once a second: wait for the change to show.
    let served = '';
    for (let i = 0; i < 60 && served !== 'carol'; i++) {
      served = await ask(fillFirst, `ff-priority-${i}`);
      if (served !== 'carol') await new Promise((r) => setTimeout(r, 100));
    }
    expect(served).toBe('carol');
    // …and carol now drains first for every new session.
    for (let i = 0; i < 3; i++) expect(await ask(fillFirst, `ff-after-${i}`)).toBe('carol');
  });
});

describe('round-robin with session affinity', () => {
  it('keeps one session on one account and spreads different sessions over the accounts', async () => {
    const same = [];
    for (let i = 0; i < 4; i++) same.push(await ask(roundRobin, 'rr-steady'));
    expect(new Set(same).size).toBe(1);
    const spread = [];
    for (let i = 0; i < 3; i++) spread.push(await ask(roundRobin, `rr-new-${i}`));
    expect(new Set(spread)).toEqual(new Set(['alice', 'bob', 'carol']));
  });

  it('moves a session off an account that cools down, and it stays on the new one', async () => {
    const home = await ask(roundRobin, 'rr-mover');
    backend.respond = (req) => (req.headers.authorization === `Bearer at-${home}` ? usageLimitAnswer(600) : textAnswer('ok'));
    const moved = await ask(roundRobin, 'rr-mover');
    expect(moved).not.toBe(home);
    // Round-robin alone would hand the next requests to the third account in turn.
    for (let i = 0; i < 3; i++) expect(await ask(roundRobin, 'rr-mover')).toBe(moved);
    expect((await cooling(roundRobin)).map((r) => r.email)).toEqual([`${home}@example.com`]);
  });
});

describe('the accounts management route', () => {
  it('is guarded like the other management routes', async () => {
    expect((await fetch(`${roundRobin.base}/v0/management/accounts`)).status).toBe(401);
    expect((await fetch(`${roundRobin.base}/v0/management/accounts`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
  });
});
