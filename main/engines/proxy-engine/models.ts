import type { ClientFormat } from './client-errors.js';
import type { EngineContext } from './context.js';
import type { AccountUpstream } from './providers/account-upstream.js';
import { resolveUpstreams } from './traffic/select.js';

export interface ModelEntry {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

/**
 * `/v1/models` in the OpenAI list shape: every model of every upstream and of every provider with a
 * signed-in account (or of the pinned one), `owned_by` = the upstream's name or the provider value. `created` (seconds) is always filled, as the spec's model
 * entry requires: the engine's start time, since upstream lists in the config carry no dates.
 */
export function listModels(ctx: EngineContext, pinned?: string, accounts: readonly AccountUpstream[] = []): { object: 'list'; data: ModelEntry[] } {
  const created = Math.floor(ctx.startedAt / 1000);
  const seen = new Set<string>();
  const data: ModelEntry[] = [];
  for (const upstream of [...ctx.config.upstreams, ...accounts]) {
    if (pinned !== undefined && upstream.name !== pinned) continue;
    for (const id of upstream.models) {
      const key = `${upstream.name}\0${id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      data.push({ id, object: 'model', created, owned_by: upstream.name });
    }
  }
  return { object: 'list', data };
}

/**
 * `GET /v1/models/{id}` (`models.retrieve()` of both SDKs): a model any upstream lists, or a
 * `model_aliases` name that routes to one, in the client's shape. Undefined = unknown (404).
 */
export function findModel(ctx: EngineContext, id: string, format: ClientFormat, pinned?: string, accounts: readonly AccountUpstream[] = []): Record<string, unknown> | undefined {
  const resolved = resolveUpstreams(ctx.config, id, undefined, accounts);
  if (!resolved.ok) return undefined;
  const upstream = pinned === undefined ? resolved.upstreams[0]! : resolved.upstreams.find((u) => u.name === pinned);
  if (!upstream) return undefined;
  if (format === 'anthropic') {
    return { type: 'model', id, display_name: id, created_at: new Date(Math.floor(ctx.startedAt / 1000) * 1000).toISOString() };
  }
  return { id, object: 'model', created: Math.floor(ctx.startedAt / 1000), owned_by: upstream.name };
}
