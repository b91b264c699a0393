import type { EngineContext } from './context.js';

export interface ModelEntry {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

/**
 * `/v1/models` in the OpenAI list shape: every model of every upstream, `owned_by` = the
 * upstream's name. `created` (seconds) is always filled, as the spec's model entry requires:
 * the engine's start time, since upstream lists in the config carry no dates.
 */
export function listModels(ctx: EngineContext): { object: 'list'; data: ModelEntry[] } {
  const created = Math.floor(ctx.startedAt / 1000);
  const seen = new Set<string>();
  const data: ModelEntry[] = [];
  for (const upstream of ctx.config.upstreams) {
    for (const id of upstream.models) {
      const key = `${upstream.name}\0${id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      data.push({ id, object: 'model', created, owned_by: upstream.name });
    }
  }
  return { object: 'list', data };
}
