import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { resourcePath } from '../../infra/app-root.js';
import { isFiniteNumber, isRecord, isStringArray } from '../../infra/json-checks.js';

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
  /** Names priced as one model until an instant and another after (ms since the epoch; the last step has none). */
  dated: Map<string, DatedStep[]>;
}

export interface DatedStep {
  until: number | null;
  price: ModelPrice;
}

/**
 * `resources/prices.json`, validated. By hand rather than with zod: every scan worker thread
 * loads the table too, and loading zod cost each of them tens of milliseconds of a cold scan.
 */
export function loadPriceTable(file = resourcePath('prices.json')): PriceTable {
  const text = fs.readFileSync(file, 'utf8');
  const table = checkTable(JSON.parse(text));
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
  const dated = new Map<string, DatedStep[]>();
  for (const [name, steps] of Object.entries(table.datedAliases ?? {})) {
    dated.set(
      name.toLowerCase(),
      steps.map((step) => {
        const price = entries.get(step.model.toLowerCase())!; // checkTable: a model of the table
        return { until: step.until === undefined ? null : Date.parse(step.until), price };
      }),
    );
  }
  return { id: tableDigest(text), entries, dated };
}

/** The id `loadPriceTable` gives the table in `file`, without checking or parsing it. */
export function priceTableId(file = resourcePath('prices.json')): string {
  return tableDigest(fs.readFileSync(file, 'utf8'));
}

function tableDigest(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

interface TableModel extends Rates {
  vendor: string;
  longContext?: Rates & { mode: 'per-kind' | 'whole-request'; threshold: number };
  fastMultiplier?: number;
  aliases?: string[];
  note?: string;
}

const RATE_NAMES = ['input', 'output', 'cacheWrite5m', 'cacheWrite1h', 'cacheRead'] as const;

/** `{version: 1, models: {name: model}}`; unknown keys are ignored. Throws naming the bad field. */
export function checkTable(raw: unknown): { version: 1; models: Record<string, TableModel>; datedAliases?: Record<string, TableStep[]> } {
  if (!isRecord(raw)) fail('the table', 'must be an object');
  if (raw.version !== 1) fail('version', 'must be 1');
  if (!isRecord(raw.models)) fail('models', 'must be an object');
  for (const [name, model] of Object.entries(raw.models)) checkModel(`models.${name}`, model);
  if (raw.datedAliases !== undefined) {
    if (!isRecord(raw.datedAliases)) fail('datedAliases', 'must be an object');
    const known = new Set(Object.entries(raw.models as Record<string, TableModel>).flatMap(([name, m]) => [name, ...(m.aliases ?? [])].map((n) => n.toLowerCase())));
    for (const [name, steps] of Object.entries(raw.datedAliases)) checkSteps(`datedAliases.${name}`, steps, known);
  }
  return raw as { version: 1; models: Record<string, TableModel>; datedAliases?: Record<string, TableStep[]> };
}

/** `[{model, until}, …, {model}]`: each step but the last ends at an ISO instant, in order. */
interface TableStep {
  model: string;
  until?: string;
}

function checkSteps(at: string, steps: unknown, known: Set<string>): void {
  if (!Array.isArray(steps) || steps.length === 0) fail(at, 'must be a non-empty list');
  let last = -Infinity;
  steps.forEach((step: unknown, i) => {
    if (!isRecord(step) || typeof step.model !== 'string') fail(`${at}[${i}].model`, 'must be a string');
    if (!known.has(step.model.toLowerCase())) fail(`${at}[${i}].model`, 'must name a model of the table');
    const final = i === steps.length - 1;
    if (final !== (step.until === undefined)) fail(`${at}[${i}].until`, final ? 'must be absent on the last step' : 'must be an ISO instant');
    if (!final) {
      const until = typeof step.until === 'string' ? Date.parse(step.until) : NaN;
      if (!(until > last)) fail(`${at}[${i}].until`, 'must be an ISO instant after the previous one');
      last = until;
    }
  });
}

function checkModel(at: string, m: unknown): void {
  if (!isRecord(m)) fail(at, 'must be an object');
  if (typeof m.vendor !== 'string') fail(`${at}.vendor`, 'must be a string');
  checkRates(at, m);
  if (m.longContext !== undefined) {
    const long = m.longContext;
    if (!isRecord(long)) fail(`${at}.longContext`, 'must be an object');
    if (long.mode !== 'per-kind' && long.mode !== 'whole-request') fail(`${at}.longContext.mode`, "must be 'per-kind' or 'whole-request'");
    if (!Number.isSafeInteger(long.threshold) || (long.threshold as number) <= 0) fail(`${at}.longContext.threshold`, 'must be a positive integer');
    checkRates(`${at}.longContext`, long);
  }
  if (m.fastMultiplier !== undefined && !(isFiniteNumber(m.fastMultiplier) && m.fastMultiplier > 0)) fail(`${at}.fastMultiplier`, 'must be a positive number');
  if (m.aliases !== undefined && !isStringArray(m.aliases)) fail(`${at}.aliases`, 'must be a list of strings');
  if (m.note !== undefined && typeof m.note !== 'string') fail(`${at}.note`, 'must be a string');
}

function checkRates(at: string, o: Record<string, unknown>): void {
  for (const name of RATE_NAMES) {
    const v = o[name];
    if (!(isFiniteNumber(v) && v >= 0)) fail(`${at}.${name}`, 'must be a non-negative number');
  }
}

function fail(at: string, what: string): never {
  throw new Error(`prices.json: ${at} ${what}`);
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
