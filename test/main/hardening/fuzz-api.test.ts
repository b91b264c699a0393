import fs from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { diffSnapshots, snapshotTree } from '../../helpers/fs-snapshot.js';
import { rawRequest, type RawResponse } from '../../helpers/raw-http.js';
import { traversalCorpus } from '../../helpers/traversal-corpus.js';

/**
 * Property-based sweep over every route the API describes in /api/openapi.json, so each new
 * area is covered the moment it is mounted. For every input: no 5xx (beyond documented ones),
 * no crash, the documented JSON error shape, and nothing outside the app's directories touched.
 */

const CANARY = 'CANARY-7f3a9c-outside-secret';
// Routes that start long-lived children or streams: exercised by their own tests, not by the fuzzer.
const EXCLUDED = new Set(['POST /api/proxy/proxy-start', 'POST /api/bridge/daemon/start', 'GET /api/events']);
// 5xx answers the spec documents for a healthy server in this state (nothing running, nothing configured).
const DOCUMENTED_5XX = new Set(['CLIProxy Plus not running']);

interface Operation {
  method: string;
  path: string;
  query: string[];
  bodyKeys: string[] | null;
}

let app: TestApp;
let root: string;
let outside: string;
let operations: Operation[];
let before: Map<string, string>;

beforeAll(async () => {
  app = await startTestApp({
    before: async ({ home }) => {
      root = path.dirname(home);
      outside = path.join(root, 'outside');
      await fs.mkdir(outside, { recursive: true });
      await fs.writeFile(path.join(outside, 'x.json'), JSON.stringify({ secret: CANARY }));
      await fs.writeFile(path.join(outside, 'error-x.log'), `=== Request ===\n${CANARY}\n`);
      await fs.writeFile(path.join(outside, 'x.md'), `# ${CANARY}\n`);
    },
  });
  operations = await describeOperations(app);
  before = snapshotTree(root, (rel) => isAppOwned(rel));
});

afterAll(() => app?.stop());

function isAppOwned(rel: string): boolean {
  return rel === 'home' || rel.startsWith(`home${path.sep}`) || rel === 'agent' || rel.startsWith(`agent${path.sep}`);
}

async function describeOperations(testApp: TestApp): Promise<Operation[]> {
  const { body } = await testApp.json('GET', '/api/openapi.json');
  const ops: Operation[] = [];
  for (const [p, methods] of Object.entries(body.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const key = `${method.toUpperCase()} ${p.replace(/\{([^}]+)\}/g, ':$1')}`;
      if (EXCLUDED.has(key)) continue;
      const query = (op.parameters ?? []).filter((x: any) => x.in === 'query').map((x: any) => x.name as string);
      const props = op.requestBody?.content?.['application/json']?.schema?.properties;
      ops.push({ method: method.toUpperCase(), path: p, query, bodyKeys: op.requestBody ? Object.keys(props ?? {}) : null });
    }
  }
  return ops;
}

const weird = fc.constantFrom('', ' ', '\0', '********', 'null', '-1', '0', '1e309', 'NaN', '\u0000\u202e', '😀'.repeat(40), 'x'.repeat(5000));
const pathValue = () =>
  fc.oneof(
    fc.constantFrom(...traversalCorpus('/outside/x.json')),
    fc.string({ maxLength: 80 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.stringMatching(/^[A-Za-z0-9._-]{1,70}$/),
    weird,
  );
const jsonValue = fc.oneof(fc.jsonValue({ maxDepth: 3 }), weird, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));

function encodeSegment(value: string): string {
  // Send printable ASCII raw (so `..` and `%2e` reach the router as typed), the rest encoded.
  return /^[\x21-\x7e]*$/.test(value) && !value.includes('?') && !value.includes('#') ? value : encodeURIComponent(value);
}

function bodyArbitrary(keys: string[]) {
  const record = fc.dictionary(fc.constantFrom(...(keys.length > 0 ? keys : ['x'])), jsonValue, { maxKeys: keys.length + 1 });
  return fc.oneof(
    record.map((o) => JSON.stringify(o)),
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
    fc.constantFrom('{', 'nul', '[]', '""', '{"a":1}{', '\u0000', '{"__proto__":{"polluted":1}}', `{"content":"${'a'.repeat(70_000)}"}`),
  );
}

function assertWellFormed(op: Operation, res: RawResponse, sent: string): void {
  const where = `${op.method} ${sent} -> ${res.status} ${res.body.slice(0, 200)}`;
  expect(res.body.includes(CANARY), `leaked outside content: ${where}`).toBe(false);
  if (res.status >= 500) {
    const error = safeJson(res.body)?.error;
    expect(DOCUMENTED_5XX.has(error), `undocumented 5xx: ${where}`).toBe(true);
  }
  if (res.status >= 400) {
    expect(res.headers['content-type'] ?? '', where).toContain('application/json');
    const parsed = safeJson(res.body);
    expect(typeof parsed?.error, where).toBe('string');
    if (parsed?.message !== undefined) expect(typeof parsed.message, where).toBe('string');
  }
}

function safeJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

describe('property-based sweep of every described route', () => {
  it('finds the routes to sweep', () => {
    expect(operations.length).toBeGreaterThan(0);
  });

  it('answers adversarial path, query and body input without 5xx, crash or leak', async () => {
    for (const op of operations) {
      const input = fc.record({
        params: fc.array(pathValue(), { minLength: 4, maxLength: 4 }),
        query: fc.dictionary(fc.constantFrom(...(op.query.length > 0 ? op.query : ['q'])), fc.oneof(pathValue(), weird), { maxKeys: 3 }),
        body: op.bodyKeys ? bodyArbitrary(op.bodyKeys) : fc.constant(undefined),
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ params, query, body }) => {
          let i = 0;
          const filled = op.path.replace(/\{[^}]+\}/g, () => encodeSegment(params[i++] ?? 'x'));
          const qs = Object.entries(query)
            .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
            .join('&');
          const sent = qs ? `${filled}?${qs}` : filled;
          const res = await rawRequest(app.port, op.method, sent, {
            headers: body === undefined ? {} : { 'content-type': 'application/json' },
            body,
          });
          assertWellFormed(op, res, sent);
        }),
        { numRuns: 25, seed: 20261122, endOnFailure: true },
      );
    }
    const alive = await app.json('GET', '/api/openapi.json');
    expect(alive.status).toBe(200);
  }, 120_000);

  it('touched nothing outside {config_dir} and the agent data dir', () => {
    const after = snapshotTree(root, (rel) => isAppOwned(rel));
    expect(diffSnapshots(before, after)).toEqual([]);
  });
});
