import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { AgentLoader } from './agents/agent.js';

/** Distinct flag texts whose digest is remembered; a new scan's flags push out old ones. */
const MAX_KEYS = 32;

/**
 * Each agent's scan flags (agents/agent.ts `flags`: codex's service tier, kimi's config.json
 * model, copilot's last shutdown per session and model), and what a file's state remembers of the
 * flags it was read with (`key`). The rule (docs/usage.md, "The flags rule"): a file whose key
 * differs from the one it was read with is read again, even when its size and mtime did not move.
 * A walk reads the flags afresh; a watched refresh reads them again only when the watches saw a
 * change below the agent's roots or one of its `flagInputs` changed its stat, so an idle refresh
 * costs one stat per config file.
 */
export class AgentFlags {
  private readonly last = new Map<string, { flags: string; inputs: string }>();
  private readonly keys = new Map<string, string>();

  /** A walk (every file of the agent is looked at): the flags read afresh. */
  read(loader: AgentLoader, dirs: readonly string[]): string {
    if (loader.flags === undefined) return '';
    const flags = loader.flags(dirs);
    this.last.set(loader.id, { flags, inputs: inputsOf(loader, dirs) });
    return flags;
  }

  /**
   * A watched refresh. `seen`: the watches reported a change below the agent's roots (or it has
   * files no folder watch covers). `changed`: the flags differ from the last scan's, so every file
   * of the agent must be planned again (those whose key differs are read).
   */
  watched(loader: AgentLoader, dirs: readonly string[], seen: boolean): { flags: string; changed: boolean } {
    if (loader.flags === undefined) return { flags: '', changed: false };
    const before = this.last.get(loader.id);
    const inputs = inputsOf(loader, dirs);
    if (before !== undefined && !seen && before.inputs === inputs) return { flags: before.flags, changed: false };
    const flags = loader.flags(dirs);
    this.last.set(loader.id, { flags, inputs });
    return { flags, changed: before === undefined || before.flags !== flags };
  }

  /** What a file's state keeps of the flags it is read with: '' when its reading depends on none, else a digest (copilot's can be long). */
  key(loader: AgentLoader, file: string, flags: string): string {
    const mine = loader.flagsOf?.(file, flags) ?? flags;
    if (mine === '') return '';
    let key = this.keys.get(mine);
    if (key === undefined) {
      if (this.keys.size >= MAX_KEYS) this.keys.clear();
      key = createHash('sha256').update(mine).digest('base64url').slice(0, 22);
      this.keys.set(mine, key);
    }
    return key;
  }
}

/** The stat of each file the flags come from outside the watched folders: path, size, mtime, inode (or absent). */
function inputsOf(loader: AgentLoader, dirs: readonly string[]): string {
  const files = loader.flagInputs?.(dirs) ?? [];
  return files
    .map((file) => {
      try {
        const s = fs.statSync(file);
        return `${file}\u0000${s.size}\u0000${s.mtimeMs}\u0000${s.ino}`;
      } catch {
        return `${file}\u0000-`;
      }
    })
    .join('\u0001');
}
