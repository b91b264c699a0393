export type ModelSource = 'proxy' | 'usage' | 'presets';

export interface ModelSuggestion {
  id: string;
  sources: ModelSource[];
}

/** Where each part comes from; a part that fails or times out is empty, never an error. */
export type SuggestionSources = Record<ModelSource, () => Promise<string[]>>;

const ORDER: ModelSource[] = ['proxy', 'usage', 'presets'];

/** Usage may have to scan logs first; the model field must not wait for that. */
export const PART_TIMEOUT_MS = 3_000;

/** Models for the profile editor's model fields: what the proxy serves, what usage saw, what presets name. */
export async function modelSuggestions(sources: SuggestionSources, timeoutMs = PART_TIMEOUT_MS): Promise<{ models: ModelSuggestion[] }> {
  const parts = await Promise.all(ORDER.map((source) => withinTime(sources[source](), timeoutMs)));
  return { models: mergeSuggestions(Object.fromEntries(ORDER.map((s, i) => [s, parts[i]!])) as Record<ModelSource, string[]>) };
}

/** One entry per id, sources in a fixed order, sorted by id in code-unit order. Pure. */
export function mergeSuggestions(parts: Record<ModelSource, string[]>): ModelSuggestion[] {
  const byId = new Map<string, Set<ModelSource>>();
  for (const source of ORDER) {
    for (const raw of parts[source]) {
      const id = raw.trim();
      if (id === '') continue;
      let set = byId.get(id);
      if (!set) byId.set(id, (set = new Set()));
      set.add(source);
    }
  }
  return [...byId]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, set]) => ({ id, sources: ORDER.filter((s) => set.has(s)) }));
}

async function withinTime(part: Promise<string[]>, ms: number): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), ms);
    timer.unref();
  });
  try {
    return await Promise.race([part.catch(() => []), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
