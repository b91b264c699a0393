import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkTable, loadPriceTable, priceTableId } from '../../../../main/services/usage/price-table.js';

const shipped = () => JSON.parse(fs.readFileSync(new URL('../../../../resources/prices.json', import.meta.url), 'utf8'));
const model = { vendor: 'anthropic', input: 3, output: 15, cacheWrite5m: 3.75, cacheWrite1h: 6, cacheRead: 0.3 };
const table = (m: Record<string, unknown>) => ({ version: 1, models: { x: { ...model, ...m } } });

describe('price table', () => {
  it('loads the shipped table: every name and alias, rates per token', () => {
    const t = loadPriceTable();
    expect(checkTable(shipped())).toBeTruthy();
    expect(t.entries.get('claude-sonnet-4-5')).toMatchObject({ name: 'claude-sonnet-4-5', input: 3e-6, output: 15e-6, fastMultiplier: 1 });
    expect(t.entries.get('claude-sonnet-4-5')!.longContext).toMatchObject({ mode: 'per-kind', threshold: 200_000, input: 6e-6 });
    expect(t.id).toMatch(/^[A-Za-z0-9+/]{27}=$/);
    expect(t.dated.get('kimi-for-coding')!.map((s) => [s.until, s.price.name])).toEqual([[Date.parse('2026-04-20T15:28:10.072Z'), 'kimi-k2.5'], [null, 'kimi-k2.6']]);
  });

  it('accepts the optional fields and ignores unknown ones', () => {
    const full = table({ longContext: { ...model, mode: 'whole-request', threshold: 1 }, fastMultiplier: 6, aliases: ['y'], note: 'n', extra: true });
    expect(checkTable({ ...full, $comment: 'c' })).toEqual({ ...full, $comment: 'c' });
  });

  it.each([
    [[], 'prices.json: the table must be an object'],
    [{ version: 2, models: {} }, 'prices.json: version must be 1'],
    [{ version: 1, models: [] }, 'prices.json: models must be an object'],
    [{ version: 1, models: { x: 5 } }, 'prices.json: models.x must be an object'],
    [table({ vendor: 1 }), 'prices.json: models.x.vendor must be a string'],
    [table({ input: -1 }), 'prices.json: models.x.input must be a non-negative number'],
    [table({ cacheRead: '0.3' }), 'prices.json: models.x.cacheRead must be a non-negative number'],
    [table({ cacheWrite1h: undefined }), 'prices.json: models.x.cacheWrite1h must be a non-negative number'],
    [table({ longContext: { ...model, mode: 'other', threshold: 1 } }), "prices.json: models.x.longContext.mode must be 'per-kind' or 'whole-request'"],
    [table({ longContext: { ...model, mode: 'per-kind', threshold: 0.5 } }), 'prices.json: models.x.longContext.threshold must be a positive integer'],
    [table({ longContext: { ...model, mode: 'per-kind', threshold: 1, output: null } }), 'prices.json: models.x.longContext.output must be a non-negative number'],
    [table({ fastMultiplier: 0 }), 'prices.json: models.x.fastMultiplier must be a positive number'],
    [table({ aliases: ['a', 2] }), 'prices.json: models.x.aliases must be a list of strings'],
    [table({ note: 1 }), 'prices.json: models.x.note must be a string'],
    [{ ...table({}), datedAliases: [] }, 'prices.json: datedAliases must be an object'],
    [{ ...table({}), datedAliases: { d: [] } }, 'prices.json: datedAliases.d must be a non-empty list'],
    [{ ...table({}), datedAliases: { d: [{ model: 'nope' }] } }, 'prices.json: datedAliases.d[0].model must name a model of the table'],
    [{ ...table({}), datedAliases: { d: [{ model: 'x', until: '2026-01-01T00:00:00Z' }] } }, 'prices.json: datedAliases.d[0].until must be absent on the last step'],
    [{ ...table({}), datedAliases: { d: [{ model: 'x' }, { model: 'x' }] } }, 'prices.json: datedAliases.d[0].until must be an ISO instant'],
    [{ ...table({}), datedAliases: { d: [{ model: 'x', until: 'soon' }, { model: 'x' }] } }, 'prices.json: datedAliases.d[0].until must be an ISO instant after the previous one'],
  ])('rejects %j', (raw, message) => {
    expect(() => checkTable(raw)).toThrow(message);
  });
});

describe('priceTableId', () => {
  it('is the id loadPriceTable gives the same file, so saved answers can be matched to a table cheaply', () => {
    expect(priceTableId()).toBe(loadPriceTable().id);
  });
});
