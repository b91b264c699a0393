import type { Clock } from '../../infra/clock.js';
import type { Logger } from '../../infra/logger.js';

/** One model as the daemon's `/v1/models` answers it (OpenAI list entry). */
export interface CatalogModel {
  id: string;
  object: 'model';
  /** seconds */
  created: number;
  owned_by: string;
}

export const MODELS_TTL_MS = 5 * 60 * 1000;
/** A failed catalog fetch is retried after this long; meanwhile the built-in list answers. */
export const FAILURE_TTL_MS = 30 * 1000;

const BUILTIN_CREATED = 1_735_689_600; // 2025-01-01, a fixed stamp for the built-in entries

/** Used when the upstream catalog cannot be fetched. The first entry is the fallback default. */
export const BUILTIN_MODEL_IDS = [
  'claude-4.5-sonnet',
  'claude-4.5-opus',
  'claude-4.5-haiku',
  'claude-4-sonnet',
  'gpt-5',
  'gpt-5-codex',
  'gpt-4.1',
  'gemini-2.5-pro',
  'grok-code-fast-1',
  'cursor-small',
] as const;

export function ownerOf(id: string): string {
  if (/^claude/i.test(id)) return 'anthropic';
  if (/^(gpt|o\d)/i.test(id)) return 'openai';
  if (/^gemini/i.test(id)) return 'google';
  if (/^grok/i.test(id)) return 'xai';
  return 'cursor';
}

export function builtinModels(): CatalogModel[] {
  return BUILTIN_MODEL_IDS.map((id) => ({ id, object: 'model', created: BUILTIN_CREATED, owned_by: ownerOf(id) }));
}

/** Accepts the OpenAI list shape (and a bare `models` array); null when nothing usable is in it. */
export function parseCatalog(raw: unknown, now: number): CatalogModel[] | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const list = (raw as { data?: unknown; models?: unknown }).data ?? (raw as { models?: unknown }).models;
  if (!Array.isArray(list)) return null;
  const models: CatalogModel[] = [];
  for (const entry of list) {
    const e = (typeof entry === 'string' ? { id: entry } : entry) as Record<string, unknown> | null;
    if (!e || typeof e.id !== 'string' || e.id === '') continue;
    models.push({
      id: e.id,
      object: 'model',
      created: typeof e.created === 'number' ? Math.floor(e.created) : Math.floor(now / 1000),
      owned_by: typeof e.owned_by === 'string' && e.owned_by ? e.owned_by : ownerOf(e.id),
    });
  }
  return models.length > 0 ? models : null;
}

export interface CatalogOptions {
  fetchUpstream: () => Promise<unknown>;
  clock: Clock;
  logger: Logger;
  ttlMs?: number;
}

/**
 * The upstream model catalog, fetched at most once per TTL (concurrent callers share one
 * fetch). When the upstream cannot answer, the built-in list stands in for a short while.
 */
export class ModelCatalog {
  private cached: { models: CatalogModel[]; until: number } | undefined;
  private pending: Promise<CatalogModel[]> | undefined;

  constructor(private readonly options: CatalogOptions) {}

  async list(): Promise<CatalogModel[]> {
    const now = this.options.clock.now();
    if (this.cached && now < this.cached.until) return this.cached.models;
    this.pending ??= this.refresh().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async refresh(): Promise<CatalogModel[]> {
    const { clock, logger } = this.options;
    try {
      const models = parseCatalog(await this.options.fetchUpstream(), clock.now());
      if (!models) throw new Error('the upstream catalog listed no models');
      this.cached = { models, until: clock.now() + (this.options.ttlMs ?? MODELS_TTL_MS) };
      return models;
    } catch (err) {
      logger.warn(`bridge: model catalog unavailable, using the built-in list (${err instanceof Error ? err.message : String(err)})`);
      const models = builtinModels();
      this.cached = { models, until: clock.now() + FAILURE_TTL_MS };
      return models;
    }
  }
}
