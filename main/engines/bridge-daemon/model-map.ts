import type { CatalogModel } from './catalog.js';

export interface ModelChoice {
  /** Configured default (`cursor.model`). */
  model: string;
  /** Overrides for Claude tier names; empty string = no override. */
  opus: string;
  sonnet: string;
  haiku: string;
}

export interface ResolvedModel {
  model: string;
  /** Set when the requested model was replaced by the default. */
  fellBackFrom?: string;
}

/** Which Claude tier a model name belongs to (`claude-sonnet-4-5-20250929` → sonnet). */
export function tierOf(model: string): 'opus' | 'sonnet' | 'haiku' | null {
  const m = /\b(opus|sonnet|haiku)\b/i.exec(model.replace(/[-_.]/g, ' '));
  return m ? (m[1]!.toLowerCase() as 'opus' | 'sonnet' | 'haiku') : null;
}

/** The catalog's default: the configured model when the catalog has it, else its first entry. */
export function defaultModel(catalog: CatalogModel[], choice: ModelChoice): string {
  return catalog.some((m) => m.id === choice.model) ? choice.model : (catalog[0]?.id ?? choice.model);
}

/**
 * Maps a client's model to one the upstream serves: tier overrides first (so Claude Code's
 * `claude-opus-...` can run on any model), then the catalog check with the default as fallback.
 */
export function resolveModel(requested: unknown, catalog: CatalogModel[], choice: ModelChoice): ResolvedModel {
  const asked = typeof requested === 'string' ? requested.trim() : '';
  const tier = asked ? tierOf(asked) : null;
  const mapped = tier && choice[tier] ? choice[tier] : asked;
  if (mapped && catalog.some((m) => m.id === mapped)) return { model: mapped };
  return { model: defaultModel(catalog, choice), fellBackFrom: mapped || '(none)' };
}
