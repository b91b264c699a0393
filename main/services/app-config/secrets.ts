import { isRecord } from '../../infra/json-checks.js';
import { SECRET_CONFIG_PATHS } from './schema.js';

/** What a masked secret looks like in GET /api/config, and what a PUT sends to keep it. */
export const MASK = '********';

type Obj = Record<string, unknown>;

/** A deep copy with every non-empty secret replaced by `********` (empty ones stay empty). */
export function maskSecrets<T>(config: T): T {
  const copy = structuredClone(config) as Obj;
  for (const dotted of SECRET_CONFIG_PATHS) {
    const path = dotted.split('.');
    const value = getPath(copy, path);
    if (typeof value === 'string' && value !== '') setPath(copy, path, MASK);
  }
  return copy as T;
}

/**
 * The client's config with stored secrets put back where it sent `********` or left a secret
 * out: the client never saw those values, so leaving them out is not a request to delete them
 * (the token endpoints own them). A `********` with nothing stored behind it is dropped.
 */
export function restoreSecrets(next: Obj, stored: Obj): Obj {
  const copy = structuredClone(next);
  for (const dotted of SECRET_CONFIG_PATHS) {
    const path = dotted.split('.');
    const sent = getPath(copy, path);
    if (sent !== undefined && sent !== MASK) continue;
    const kept = getPath(stored, path);
    if (kept !== undefined) setPath(copy, path, kept);
    else if (sent === MASK) deletePath(copy, path);
  }
  return copy;
}

function getPath(obj: Obj, path: string[]): unknown {
  let current: unknown = obj;
  for (const key of path) {
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** Creates missing parents; gives up (leaving validation to complain) where a parent is not an object. */
function setPath(obj: Obj, path: string[], value: unknown): void {
  let current: Obj = obj;
  for (const key of path.slice(0, -1)) {
    if (current[key] === undefined) current[key] = {};
    const child = current[key];
    if (!isRecord(child)) return;
    current = child;
  }
  current[path[path.length - 1]!] = value;
}

function deletePath(obj: Obj, path: string[]): void {
  const parent = getPath(obj, path.slice(0, -1));
  if (isRecord(parent)) delete parent[path[path.length - 1]!];
}
