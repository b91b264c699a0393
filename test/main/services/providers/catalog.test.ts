import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resourcePath } from '../../../../main/infra/app-root.js';
import { createLogger } from '../../../../main/infra/logger.js';
import { ProviderCatalog, parseCatalog } from '../../../../main/services/providers/catalog.js';

const shipped = () => fs.readFile(resourcePath('providers.json'), 'utf8');

describe('resources/providers.json', () => {
  it('validates: every entry has id, name, format, base URL, key URL, tier models, models endpoint and a dated source', async () => {
    const entries = parseCatalog(await shipped());
    expect(entries.length).toBeGreaterThanOrEqual(15);
    for (const e of entries) {
      expect(e.source.read, e.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (e.keyRequired) expect(e.keyUrl, e.id).toMatch(/^https:\/\//);
      // the proxy YAML's habit: anthropic base URLs never carry the /v1 the client appends
      if (e.format === 'anthropic') expect(e.baseUrl, e.id).not.toMatch(/\/v1\/?$/);
    }
  });

  it('lists every provider decisions §4.2 names', async () => {
    const ids = parseCatalog(await shipped()).map((e) => e.id);
    for (const id of ['anthropic', 'glm', 'glm-cn', 'kimi', 'kimi-cn', 'deepseek', 'qwen', 'minimax', 'openrouter', 'xai', 'groq', 'openai', 'gemini', 'ollama', 'lmstudio']) {
      expect(ids).toContain(id);
    }
  });

  it('refuses a malformed entry and a duplicate id, naming the problem', () => {
    const base = { id: 'x', name: 'X', format: 'openai', baseUrl: 'https://x.test/v1', keyUrl: null, keyRequired: false, models: { default: 'a', opus: 'a', sonnet: 'a', haiku: 'a' }, modelsEndpoint: true, source: { url: 'https://x.test', read: '2026-11-27' } };
    expect(() => parseCatalog(JSON.stringify({ version: 1, providers: [{ ...base, format: 'grpc' }] }))).toThrow(/format/);
    expect(() => parseCatalog(JSON.stringify({ version: 1, providers: [{ ...base, source: { url: 'https://x.test', read: 'yesterday' } }] }))).toThrow(/read/);
    expect(() => parseCatalog(JSON.stringify({ version: 1, providers: [base, base] }))).toThrow(/duplicate id x/);
  });
});

describe('ProviderCatalog with a user providers.json', () => {
  let dir: string;
  const warnings: string[] = [];
  const logger = createLogger('warn', (line) => void warnings.push(line));
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-catalog-'));
    warnings.length = 0;
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  const own = { id: 'mycorp', name: 'My gateway', format: 'anthropic', baseUrl: 'https://llm.corp.test', keyUrl: null, keyRequired: true, models: { default: 'm', opus: 'm', sonnet: 'm', haiku: 'm' }, modelsEndpoint: false, source: { url: 'https://wiki.corp.test', read: '2026-11-01' } };

  it('adds new entries and replaces a built-in one with the same id', async () => {
    const groq = { ...own, id: 'groq', name: 'Groq via corp', baseUrl: 'https://groq.corp.test/v1', format: 'openai' };
    await fs.writeFile(path.join(dir, 'providers.json'), JSON.stringify({ providers: [own, groq] }));
    const list = await new ProviderCatalog(dir, logger).list();
    expect(list.find((e) => e.id === 'mycorp')).toMatchObject({ origin: 'user', baseUrl: 'https://llm.corp.test' });
    expect(list.find((e) => e.id === 'groq')).toMatchObject({ origin: 'user', name: 'Groq via corp' });
    expect(list.filter((e) => e.id === 'groq')).toHaveLength(1);
    expect(list.find((e) => e.id === 'anthropic')?.origin).toBe('builtin');
  });

  it('ignores a broken user file with a warning and keeps the built-in catalogue', async () => {
    await fs.writeFile(path.join(dir, 'providers.json'), '{"providers": [{"id": "BAD"}]}');
    const list = await new ProviderCatalog(dir, logger).list();
    expect(list.some((e) => e.id === 'anthropic')).toBe(true);
    expect(warnings.join('')).toMatch(/providers\.json ignored/);
  });
});
