import fs from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatErrorLog, RequestRecord } from '../../../main/engines/proxy-engine/traffic/error-log.js';
import type http from 'node:http';
import { keyWords } from '../../../main/infra/secret-rule.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

/**
 * The masking words of decisions §2 (revised after issue 17) in every spelling a key can take:
 * random case, `_`/`-`/`.`/camelCase joins, extra words around them. Whatever the spelling, the
 * masked profile read and the engine's error log never show the secret; a place word at the end
 * (`..._URL`, `..._PORT`) keeps a key plain.
 */

const WORDS = ['TOKEN', 'TOKENS', 'SECRET', 'SECRETS', 'PASSWORD', 'PASSWD', 'PWD', 'PASS', 'KEY', 'APIKEY', 'PAT', 'CREDENTIAL', 'CREDENTIALS', 'AUTH', 'AUTHORIZATION', 'COOKIE', 'SESSION', 'PRIVATE', 'SIGNATURE'];
const PLAIN = ['ANTHROPIC', 'GITHUB', 'ACCESS', 'X', 'DB', 'MY', 'PROVIDER', 'BASE'];
const PLACES = ['URL', 'URI', 'HOST', 'PORT', 'MODEL', 'PATH'];

const casing = (word: string) => fc.constantFrom(word.toUpperCase(), word.toLowerCase(), word[0] + word.slice(1).toLowerCase());
const join = fc.constantFrom('_', '-', '.', 'camel');
function spell(words: fc.Arbitrary<string>[]) {
  return fc.tuple(fc.tuple(...words), join).map(([parts, sep]) =>
    sep === 'camel' ? parts.map((p, i) => (i === 0 ? p.toLowerCase() : p[0]!.toUpperCase() + p.slice(1).toLowerCase())).join('') : parts.join(sep),
  );
}
const wordArb = (list: string[]) => fc.constantFrom(...list).chain(casing);
const sensitiveKey = fc.oneof(
  spell([wordArb(WORDS)]),
  spell([wordArb(PLAIN), wordArb(WORDS)]),
  spell([wordArb(PLAIN), wordArb(WORDS), wordArb(PLAIN)]),
);
const placeKey = spell([wordArb(PLAIN), wordArb(WORDS), wordArb(PLACES)]);
const secret = fc.string({ minLength: 8, maxLength: 40, unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789') }).map((s) => `S3cr${s}`);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

describe('masking words in every spelling', () => {
  it('the masked profile read shows no secret under any spelling of a masking word, at any depth', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(sensitiveKey, placeKey, secret, fc.boolean(), async (key, place, value, nested) => {
        const profile = `fuzz${round++}`;
        const settings = nested ? { env: {}, extra: { deeper: [{ [key]: value }] }, [place]: 'https://h/' } : { env: { [key]: value, [place]: 'https://h/' } };
        await fs.writeFile(path.join(app.home, `${profile}.settings.json`), JSON.stringify(settings));
        const res = await app.request('GET', `/api/settings/${profile}`);
        const text = await res.text();
        expect(res.status).toBe(200);
        expect(text.includes(value), `${key} leaked`).toBe(false);
        expect(text, `${place} must stay plain`).toContain('https://h/');
      }),
      { numRuns: 60, seed: 20261124 },
    );
  }, 60_000);

  it('the engine error log masks every spelling of a masking word in headers and query values', () => {
    fc.assert(
      fc.property(sensitiveKey, secret, (name, value) => {
        // Node lowercases header names, so a camelCase join cannot reach a header: send it `-`-joined there.
        const header = /[-_.]/.test(name) || keyWords(name).length === 1 ? name.toLowerCase() : keyWords(name).join('-').toLowerCase();
        const req = { method: 'POST', url: `/v1/messages?${encodeURIComponent(name)}=${value}`, httpVersion: '1.1', headers: { [header]: value } } as unknown as http.IncomingMessage;
        const record = new RequestRecord(req, 0, 'anthropic', Buffer.from('{}'));
        record.finish(500, '');
        expect(formatErrorLog(record).includes(value), `${name} leaked`).toBe(false);
      }),
      { numRuns: 300, seed: 20261124 },
    );
  });
});
