import path from 'node:path';
import type { AgentLoader, UnsupportedAgent } from './agent.js';
import { amp } from './amp.js';
import { codebuff } from './codebuff.js';
import { codex } from './codex.js';
import { copilot } from './copilot.js';
import { droid } from './droid.js';
import { gemini } from './gemini.js';
import { goose } from './goose.js';
import { hermes } from './hermes.js';
import { kilo } from './kilo.js';
import { kimi } from './kimi.js';
import { opencode } from './opencode.js';
import { openclaw } from './openclaw.js';
import { pi } from './pi.js';
import { qwen } from './qwen.js';

/** Claude Code is read by the transcript scanner (scan-file.ts); it is listed with the others. */
export const CLAUDE = { id: 'claude', name: 'Claude Code', envVar: 'CLAUDE_CONFIG_DIR' } as const;

/** Agents read through a loader, in ccusage's order. */
export const LOADERS: readonly AgentLoader[] = [codex, gemini, opencode, amp, qwen, pi, openclaw, droid, kilo, goose, hermes, kimi, codebuff, copilot];

const LATER = 'not read by Switchboard yet: its format is described in ccusage 20.0.24 but no loader exists (docs/usage.md, "Every agent")';

/** Agents ccusage 20.0.24 reads that Switchboard does not, with why (decisions §5.1). */
export const UNSUPPORTED: readonly UnsupportedAgent[] = [
  {
    id: 'antigravity',
    name: 'Antigravity',
    envVar: 'ANTIGRAVITY_DATA_DIR',
    defaultDirs: [path.join('.gemini', 'antigravity')],
    reason: 'records are protobuf conversation data and SQLite blobs whose schema is only inferred from the ccusage binary; an earlier ccusage estimated tokens from characters',
  },
  { id: 'grok', name: 'Grok Build', envVar: 'GROK_HOME', defaultDirs: ['.grok'], reason: 'the session format is only inferred from strings in the ccusage binary, not seen in a sample or source' },
  { id: 'zcode', name: 'ZCode', envVar: 'ZCODE_HOME', defaultDirs: ['.zcode'], reason: 'a SQLite store whose schema is only inferred from strings in the ccusage binary' },
];

/** Every agent id a usage read accepts, Claude first. */
export const AGENT_IDS: readonly string[] = [CLAUDE.id, ...LOADERS.map((l) => l.id), ...UNSUPPORTED.map((u) => u.id)];

export function loaderOf(id: string): AgentLoader | undefined {
  return LOADERS.find((l) => l.id === id);
}

/** ccusage's home: HOME, else USERPROFILE, else HOMEDRIVE + HOMEPATH; null when none is set. */
export function homeOf(env: NodeJS.ProcessEnv): string | null {
  if (env.HOME) return env.HOME;
  if (env.USERPROFILE) return env.USERPROFILE;
  if (env.HOMEDRIVE && env.HOMEPATH) return env.HOMEDRIVE + env.HOMEPATH;
  return null;
}

/**
 * Where an agent's logs are looked for: `usage.agents.<id>.dirs` from config.yaml, else its
 * override variable (one path or a comma-separated list), else its default folders below home;
 * then the file its `alsoFileVar` names, if any (ccusage reads it besides the folders).
 */
export function dirsOf(agent: { envVar: string; envOnePath?: boolean; defaultDirs: readonly string[]; alsoFileVar?: string; xdgDataDir?: string }, configured: readonly string[] | undefined, env: NodeJS.ProcessEnv): string[] {
  if (configured !== undefined && configured.length > 0) return configured.map((d) => expandHome(d, env));
  const also = agent.alsoFileVar === undefined ? '' : (env[agent.alsoFileVar] ?? '').trim();
  const dirs = baseDirsOf(agent, env);
  return also !== '' && !dirs.includes(also) ? [...dirs, also] : dirs;
}

function baseDirsOf(agent: { envVar: string; envOnePath?: boolean; defaultDirs: readonly string[]; xdgDataDir?: string }, env: NodeJS.ProcessEnv): string[] {
  const fromEnv = env[agent.envVar];
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    if (agent.envOnePath === true) return [fromEnv.trim()];
    return fromEnv
      .split(',')
      .map((d) => d.trim())
      .filter((d) => d.length > 0);
  }
  // OpenCode: an absolute XDG_DATA_HOME replaces ~/.local/share (ccusage 20.0.24, observed).
  const xdg = env.XDG_DATA_HOME;
  if (agent.xdgDataDir !== undefined && xdg !== undefined && path.isAbsolute(xdg)) return [path.join(xdg, agent.xdgDataDir)];
  const home = homeOf(env);
  return home === null ? [] : agent.defaultDirs.map((d) => path.join(home, d));
}

function expandHome(dir: string, env: NodeJS.ProcessEnv): string {
  const home = homeOf(env);
  if (home !== null && (dir === '~' || dir.startsWith('~/'))) return path.join(home, dir.slice(1));
  return dir;
}
