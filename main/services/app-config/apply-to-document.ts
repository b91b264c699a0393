import { isDeepStrictEqual } from 'node:util';
import { isMap, type Document } from 'yaml';
import { isRecord } from '../../infra/json-checks.js';

/**
 * Makes the YAML document say `next`, touching only what differs from `current` (the config
 * the document gives today, defaults filled). Unchanged keys keep their nodes, so comments,
 * key order and formatting survive; a changed scalar keeps its node (and trailing comment);
 * keys `next` lacks are removed from the file, which puts a defaulted key back to its default.
 */
export function applyConfigToDocument(doc: Document, current: Record<string, unknown>, next: Record<string, unknown>, at: string[] = []): void {
  for (const [key, value] of Object.entries(next)) {
    const before = Object.hasOwn(current, key) ? current[key] : undefined;
    if (isDeepStrictEqual(before, value)) continue;
    const here = [...at, key];
    if (isRecord(before) && isRecord(value) && isMapOrAbsent(doc, here)) {
      applyConfigToDocument(doc, before, value, here);
    } else {
      doc.setIn(here, value);
    }
  }
  for (const key of Object.keys(current)) {
    const here = [...at, key];
    if (!Object.hasOwn(next, key) && doc.hasIn(here)) doc.deleteIn(here);
  }
}

/** A section missing from the file (all defaults) is created holding only the changed keys. */
function isMapOrAbsent(doc: Document, path: string[]): boolean {
  const node = doc.getIn(path, true);
  return node === undefined || isMap(node);
}
