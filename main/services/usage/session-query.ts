import type { SessionEntry } from './sessions.js';
import { byName } from './totals.js';

export const SESSION_SORTS = ['lastActivity', 'cost', 'tokens'] as const;
export type SessionSort = (typeof SESSION_SORTS)[number];
export type SortOrder = 'asc' | 'desc';

/** How a sessions read narrows and orders the window's sessions; every field optional. */
export interface SessionQuery {
  sort?: SessionSort;
  order?: SortOrder;
  /** Sessions with requests in this project (exact path, as the Projects table lists it). */
  project?: string;
  /** Sessions that used this model (as listed, `-fast` included); their figures stay the whole session's. */
  model?: string;
}

const keys: Record<SessionSort, (s: SessionEntry) => number> = {
  lastActivity: (s) => Date.parse(s.lastActivity),
  cost: (s) => s.cost,
  tokens: (s) => s.totalTokens,
};

/**
 * Filters, then sorts (default: newest activity first, the order without a query). Ties keep the
 * default order, so paging through equal costs is stable.
 */
export function selectSessions(all: readonly SessionEntry[], q: SessionQuery, projectsOf?: ReadonlyMap<string, ReadonlySet<string>>): readonly SessionEntry[] {
  let list = all;
  if (q.project !== undefined) list = list.filter((s) => (projectsOf?.get(s.sessionId)?.has(q.project!) ?? false) || s.projectPath === q.project);
  if (q.model !== undefined) list = list.filter((s) => s.modelsUsed.includes(q.model!));
  if (q.sort === undefined && q.order === undefined) return list;
  const key = keys[q.sort ?? 'lastActivity'];
  const sign = (q.order ?? 'desc') === 'desc' ? -1 : 1;
  const rank = new Map(all.map((s, i) => [s, i]));
  return [...list].sort((a, b) => sign * (key(a) - key(b)) || rank.get(a)! - rank.get(b)! || byName(a.sessionId, b.sessionId));
}
