import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Path → type, size, mode and content hash of everything below `root` (links not followed). */
export function snapshotTree(root: string, skip: (rel: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(root, full);
      if (skip(rel)) continue;
      const st = fs.lstatSync(full);
      if (entry.isSymbolicLink()) out.set(rel, `link ${fs.readlinkSync(full)}`);
      else if (entry.isDirectory()) {
        out.set(rel, `dir ${st.mode.toString(8)}`);
        walk(full);
      } else {
        const hash = crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex');
        out.set(rel, `file ${st.size} ${st.mode.toString(8)} ${Math.floor(st.mtimeMs)} ${hash}`);
      }
    }
  };
  walk(root);
  return out;
}

export function diffSnapshots(before: Map<string, string>, after: Map<string, string>): string[] {
  const changes: string[] = [];
  for (const [k, v] of after) if (before.get(k) !== v) changes.push(`${before.has(k) ? 'changed' : 'created'} ${k}`);
  for (const k of before.keys()) if (!after.has(k)) changes.push(`removed ${k}`);
  return changes;
}
