import type { ReadTask } from './scan-file.js';

/**
 * A batch's tasks as they travel to a scan worker: the paths, the start offsets in one array, and
 * each task's agent and flags as an index into a table of the few distinct pairs. An object per
 * task made the structured clone write four property names and the flags (OpenCode's are its roots
 * in order, ~80 characters) for each of 122 000 files.
 */
export interface PackedTasks {
  paths: string[];
  starts: Float64Array;
  /** Per task: its index in `kinds`, or -1 for a Claude transcript (no agent, no flags). */
  kindOf: Int32Array;
  kinds: Array<{ agent: string; flags?: string }>;
}

export function packTasks(tasks: readonly ReadTask[]): PackedTasks {
  const paths: string[] = [];
  const starts = new Float64Array(tasks.length);
  const kindOf = new Int32Array(tasks.length);
  const kinds: PackedTasks['kinds'] = [];
  const known = new Map<string, number>();
  tasks.forEach((t, i) => {
    paths.push(t.path);
    starts[i] = t.start;
    if (t.agent === undefined) {
      kindOf[i] = -1;
      return;
    }
    const key = `${t.agent}\u0000${t.flags ?? '\u0001'}`;
    let kind = known.get(key);
    if (kind === undefined) {
      kind = kinds.push(t.flags === undefined ? { agent: t.agent } : { agent: t.agent, flags: t.flags }) - 1;
      known.set(key, kind);
    }
    kindOf[i] = kind;
  });
  return { paths, starts, kindOf, kinds };
}

export function unpackTasks(p: PackedTasks): ReadTask[] {
  return p.paths.map((path, i) => {
    const kind = p.kindOf[i]!;
    return kind === -1 ? { path, start: p.starts[i]! } : { path, start: p.starts[i]!, ...p.kinds[kind]! };
  });
}
