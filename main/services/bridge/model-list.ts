import { builtinModels, ownerOf, parseCatalog } from '../../engines/bridge-daemon/catalog.js';
import { defaultModel } from '../../engines/bridge-daemon/model-map.js';
import type { BridgeSection } from '../app-config/schema.js';

/** One entry of `GET /api/bridge/models` (decisions §6). */
export interface BridgeModel {
  id: string;
  name: string;
  provider: string;
  isDefault: boolean;
}

export interface BridgeModelList {
  models: BridgeModel[];
  /** The configured default model (`cursor.model`). */
  current: string;
}

const WORDS: Record<string, string> = { gpt: 'GPT', claude: 'Claude', gemini: 'Gemini', grok: 'Grok', cursor: 'Cursor' };

/** `claude-4.5-sonnet` → `Claude 4.5 Sonnet`, `gpt-5-codex` → `GPT-5 Codex`. */
export function displayName(id: string): string {
  const parts = id.split('-').filter(Boolean);
  const out: string[] = [];
  for (const part of parts) {
    const word = WORDS[part.toLowerCase()] ?? part.charAt(0).toUpperCase() + part.slice(1);
    // "GPT-5" keeps its hyphen: a version number right after the GPT family name.
    if (out.length > 0 && out.at(-1) === 'GPT' && /^\d/.test(part)) out[out.length - 1] = `GPT-${part}`;
    else out.push(word);
  }
  return out.join(' ') || id;
}

/**
 * The dashboard's model list from a catalog in the daemon's `/v1/models` shape, or the built-in
 * list when there is none (daemon stopped or unreachable).
 */
export function toModelList(catalogBody: unknown, settings: BridgeSection, now: number): BridgeModelList {
  const catalog = parseCatalog(catalogBody, now) ?? builtinModels();
  const fallback = defaultModel(catalog, { model: settings.model, opus: '', sonnet: '', haiku: '' });
  return {
    models: catalog.map((m) => ({ id: m.id, name: displayName(m.id), provider: m.owned_by || ownerOf(m.id), isDefault: m.id === fallback })),
    current: settings.model,
  };
}

/** `/v1/models` of the running daemon; null when it cannot answer (the caller falls back). */
export async function fetchDaemonCatalog(port: number, token: string | null): Promise<unknown> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/v1/models`, {
      headers: { authorization: `Bearer ${token ?? ''}` },
      signal: AbortSignal.timeout(20_000),
    });
    return res.ok ? await res.json() : null;
  } catch {
    return null;
  }
}
