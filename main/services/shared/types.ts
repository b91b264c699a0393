/** The three kinds of shared data; the plural is the directory name and the `type` query value. */
export const SHARED_TYPES = ['commands', 'skills', 'agents'] as const;
export type SharedType = (typeof SHARED_TYPES)[number];

/** The singular `type` each list item carries, as the original tool's dashboard expects. */
export const ITEM_TYPE = { commands: 'command', skills: 'skill', agents: 'agent' } as const;
export type SharedItemType = (typeof ITEM_TYPE)[SharedType];

export interface SharedItem {
  name: string;
  description: string;
  /** The item's markdown file relative to its type directory; what /api/shared/content takes. */
  path: string;
  type: SharedItemType;
}

export type SymlinkStatus = 'ok' | 'partial' | 'broken' | 'missing';

export interface SharedSummary {
  commands: number;
  skills: number;
  agents: number;
  total: number;
  symlinkStatus: SymlinkStatus;
}

export function isSharedType(value: unknown): value is SharedType {
  return typeof value === 'string' && (SHARED_TYPES as readonly string[]).includes(value);
}

/** "Sorted by name" everywhere in the API: plain UTF-16 code-unit order, independent of locale. */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
