/**
 * Appends every item of each source to `target` in order. `push(...xs)` passes each item as an
 * argument on the stack, so it throws "Maximum call stack size exceeded" beyond roughly 120 000
 * items: one SQLite store (opencode.db, 253 000 messages in the 1 GiB bench corpus) is one file
 * with that many requests.
 */
export function appendAll<T>(target: T[], ...sources: ReadonlyArray<readonly T[]>): T[] {
  for (const source of sources) for (let i = 0; i < source.length; i++) target.push(source[i]!);
  return target;
}
