import { errorMessage } from '../../infra/file-stat.js';
import { getLocalJson } from '../../infra/http-json.js';
import { ProxyError } from './errors.js';

export interface ModelEntry {
  id: string;
  object: string;
  created: number;
  owned_by: string;
}

export interface ModelList {
  models: ModelEntry[];
  byCategory: Record<string, ModelEntry[]>;
  totalCount: number;
}

/**
 * The running proxy's own `/v1/models`, grouped by `owned_by` (decisions §4). Entries missing a
 * field get a neutral value (CLIProxyAPI omits `created` for some providers; the spec's entry
 * needs an integer): created 0, owned_by "other" (CCS's fallback group).
 */
export async function fetchProxyModels(endpoint: { baseUrl: string; apiKey?: string }): Promise<ModelList> {
  let answer;
  try {
    answer = await getLocalJson(`${endpoint.baseUrl}/v1/models`, endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}, 5_000);
  } catch (err) {
    throw new ProxyError('not-running', `The proxy did not answer /v1/models: ${errorMessage(err)}`);
  }
  if (answer.status !== 200) throw new ProxyError('not-running', `The proxy answered /v1/models with HTTP ${answer.status}`);
  const data = (answer.body as { data?: unknown } | null)?.data;
  const models = (Array.isArray(data) ? data : []).flatMap(toEntry).sort(byId);
  const byCategory: Record<string, ModelEntry[]> = {};
  for (const model of models) (byCategory[model.owned_by] ??= []).push(model);
  return { models, byCategory, totalCount: models.length };
}

function toEntry(raw: unknown): ModelEntry[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const r = raw as Record<string, unknown>;
  if (typeof r.id !== 'string' || r.id === '') return [];
  return [
    {
      id: r.id,
      object: typeof r.object === 'string' ? r.object : 'model',
      created: Number.isInteger(r.created) ? (r.created as number) : 0,
      owned_by: typeof r.owned_by === 'string' && r.owned_by !== '' ? r.owned_by : 'other',
    },
  ];
}

function byId(a: ModelEntry, b: ModelEntry): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
