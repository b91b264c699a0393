import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { z } from 'zod';
import { resourcePath } from '../../infra/app-root.js';

const rates = {
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheWrite5m: z.number().nonnegative(),
  cacheWrite1h: z.number().nonnegative(),
  cacheRead: z.number().nonnegative(),
};

const modelSchema = z.object({
  vendor: z.string(),
  ...rates,
  longContext: z.object({ mode: z.enum(['per-kind', 'whole-request']), threshold: z.number().int().positive(), ...rates }).optional(),
  fastMultiplier: z.number().positive().optional(),
  aliases: z.array(z.string()).optional(),
  note: z.string().optional(),
});

const tableSchema = z.object({ version: z.literal(1), models: z.record(z.string(), modelSchema) });

/** Rates in USD per token. */
export interface Rates {
  input: number;
  output: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  cacheRead: number;
}

export interface ModelPrice extends Rates {
  /** The table entry that priced the model, for docs and tests. */
  name: string;
  longContext?: Rates & { mode: 'per-kind' | 'whole-request'; threshold: number };
  fastMultiplier: number;
}

export interface PriceTable {
  /** Digest of the file: costs stored under another id are computed again. */
  id: string;
  /** Entries by lower-case name and alias. */
  entries: Map<string, ModelPrice>;
}

/** `resources/prices.json`, validated. */
export function loadPriceTable(file = resourcePath('prices.json')): PriceTable {
  const text = fs.readFileSync(file, 'utf8');
  const table = tableSchema.parse(JSON.parse(text));
  const entries = new Map<string, ModelPrice>();
  for (const [name, m] of Object.entries(table.models)) {
    const price: ModelPrice = {
      name,
      ...perToken(m),
      fastMultiplier: m.fastMultiplier ?? 1,
      ...(m.longContext ? { longContext: { ...perToken(m.longContext), mode: m.longContext.mode, threshold: m.longContext.threshold } } : {}),
    };
    for (const key of [name, ...(m.aliases ?? [])]) entries.set(key.toLowerCase(), price);
  }
  return { id: createHash('sha1').update(text).digest('base64'), entries };
}

function perToken(r: Rates): Rates {
  return {
    input: perMillion(r.input),
    output: perMillion(r.output),
    cacheWrite5m: perMillion(r.cacheWrite5m),
    cacheWrite1h: perMillion(r.cacheWrite1h),
    cacheRead: perMillion(r.cacheRead),
  };
}

/**
 * `0.8` per million → the double nearest to 8e-7, the same number a per-token table (LiteLLM's,
 * which ccusage embeds) holds. `0.8 / 1e6` would be one ulp off.
 */
function perMillion(value: number): number {
  return Number(`${value}e-6`);
}
