import { loadPriceTable, type DatedStep, type ModelPrice, type PriceTable, type Rates } from './price-table.js';
import { SYNTHETIC_MODEL, type UsageRecord } from './types.js';

type Priced = Pick<
  UsageRecord,
  'model' | 'inputTokens' | 'outputTokens' | 'cacheWrite5mTokens' | 'cacheWrite1hTokens' | 'cacheReadTokens' | 'fast'
> & { extraTokens?: number; pricedOnlyTokens?: number; timestamp?: number };

/**
 * Looks up prices by normalised model name and computes a request's cost with the vendors'
 * rules (decisions §5). Unknown names cost 0; callers list them as `unpricedModels`.
 */
export class Pricing {
  /** Per logged model name, what depends on the name only: its dated steps, else its price. */
  private readonly byName = new Map<string, { steps: DatedStep[] | undefined; price: ModelPrice | null }>();
  private readonly entries: Map<string, ModelPrice>;
  private readonly dated: Map<string, DatedStep[]>;
  readonly tableId: string;

  constructor(table: PriceTable = loadPriceTable()) {
    this.entries = table.entries;
    this.dated = table.dated;
    this.tableId = table.id;
  }

  /**
   * `at` (ms) picks the step of a dated alias (`kimi-for-coding` is Kimi K2.5 until 2026-04-20,
   * K2.6 after, as ccusage 20.0.24 prices it); without it the latest step.
   */
  priceOf(model: string | null, at?: number): ModelPrice | null {
    if (model === null || model === SYNTHETIC_MODEL) return null;
    let known = this.byName.get(model);
    if (known === undefined) {
      // Normalising is a dozen regular expressions: once per name, not once per request.
      const name = normaliseModelName(model);
      const steps = this.dated.get(name);
      known = { steps, price: steps === undefined ? this.resolve(name) : null };
      this.byName.set(model, known);
    }
    const steps = known.steps;
    if (steps !== undefined) return (steps.find((s) => s.until !== null && at !== undefined && at < s.until) ?? steps[steps.length - 1]!).price;
    return known.price;
  }

  /** False for names the table does not know; `<synthetic>` and missing names are not models. */
  isPriced(model: string): boolean {
    return model === SYNTHETIC_MODEL || this.priceOf(model) !== null;
  }

  costOf(r: Priced): number {
    const price = this.priceOf(r.model, r.timestamp);
    if (price === null) return 0;
    const cost = price.longContext ? longContextCost(r, price, price.longContext) : flatCost(r, price);
    return r.fast ? cost * price.fastMultiplier : cost;
  }

  private resolve(name: string): ModelPrice | null {
    const exact = this.entries.get(name);
    if (exact) return exact;
    // claude-sonnet-4.5, claude-3.5-sonnet: Anthropic's ids use dashes between version digits.
    if (name.startsWith('claude')) {
      const dashed = this.entries.get(name.replace(/(\d)\.(\d)/g, '$1-$2'));
      if (dashed) return dashed;
    }
    // gpt-5-1-codex, gemini-2-5-pro (Droid writes version dots as dashes): the dotted name, if known.
    const dotted = name.replace(/(\d)-(\d)(?!\d)/g, '$1.$2');
    if (dotted !== name) {
      const found = this.entries.get(dotted) ?? this.longestPrefix(dotted);
      if (found) return found;
    }
    return this.longestPrefix(name);
  }

  /**
   * `gpt-5-codex-high` → `gpt-5-codex`, `gemini-2.5-pro-preview-06-05` → `gemini-2.5-pro`: the
   * longest entry the name starts with, at a `-`/`.` boundary. A following short number is a
   * newer version, not a variant (`claude-opus-4-7` must not price as `claude-opus-4`).
   */
  private longestPrefix(name: string): ModelPrice | null {
    let best: string | null = null;
    for (const key of this.entries.keys()) {
      if (key.length >= name.length || !name.startsWith(key)) continue;
      const rest = name.slice(key.length);
      if (!/^[-.]/.test(rest) || /^[-.]\d{1,3}(?:$|[-.])/.test(rest)) continue;
      if (best === null || key.length > best.length) best = key;
    }
    return best === null ? null : this.entries.get(best)!;
  }
}

/**
 * Only for finding the price; names are reported as logged. Drops `provider/` prefixes, Bedrock
 * `us.anthropic.` prefixes and `-v1:0` suffixes, Vertex `@date`, `:tag`, `[1m]`, date suffixes
 * (`-20250929`, `-2025-04-14`) and `-latest`.
 */
export function normaliseModelName(model: string): string {
  let s = model.trim().toLowerCase();
  s = s.replace(/^\[[a-z]+\]\s+/, ''); // `[pi] claude-sonnet-4-5`: an agent's listing prefix (agents/pi-style.ts)
  s = s.slice(s.lastIndexOf('/') + 1);
  s = s.replace(/^(?:[a-z]{2,7}\.)?anthropic\./, '');
  s = s.replace(/\[[^\]]*\]$/, '');
  s = s.replace(/-v\d+(?::\d+)?$/, '');
  s = s.replace(/:[^:]*$/, '');
  s = s.replace('@', '-');
  s = s.replace(/-(?:\d{8}|\d{4}-\d{2}-\d{2})$/, '');
  s = s.replace(/-latest$/, '');
  return s;
}

function flatCost(r: Priced, p: Rates): number {
  return (
    r.inputTokens * p.input +
    r.outputTokens * p.output +
    r.cacheWrite5mTokens * p.cacheWrite5m +
    r.cacheWrite1hTokens * p.cacheWrite1h +
    r.cacheReadTokens * p.cacheRead +
    ((r.extraTokens ?? 0) + (r.pricedOnlyTokens ?? 0)) * p.output
  );
}

/**
 * per-kind (Claude Sonnet 4/4.5): each token kind, the 5-minute and 1-hour writes separately,
 * pays the long rate only beyond the threshold. whole-request (Gemini 2.5 Pro): the whole request
 * pays the long rates when input + cache read exceed the threshold (decisions §5).
 */
function longContextCost(r: Priced, p: Rates, long: Rates & { mode: string; threshold: number }): number {
  if (long.mode === 'whole-request') {
    return flatCost(r, r.inputTokens + r.cacheReadTokens > long.threshold ? long : p);
  }
  const t = long.threshold;
  return (
    tiered(r.inputTokens, p.input, long.input, t) +
    tiered(r.outputTokens, p.output, long.output, t) +
    tiered(r.cacheWrite5mTokens, p.cacheWrite5m, long.cacheWrite5m, t) +
    tiered(r.cacheWrite1hTokens, p.cacheWrite1h, long.cacheWrite1h, t) +
    tiered(r.cacheReadTokens, p.cacheRead, long.cacheRead, t) +
    tiered((r.extraTokens ?? 0) + (r.pricedOnlyTokens ?? 0), p.output, long.output, t)
  );
}

function tiered(tokens: number, rate: number, longRate: number, threshold: number): number {
  return tokens > threshold ? threshold * rate + (tokens - threshold) * longRate : tokens * rate;
}
