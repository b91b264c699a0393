import type { UsageRecord } from '../types.js';

/** What one read of one agent file found: the file's requests (unpriced) and its damaged lines or entries. */
export interface AgentFileRecords {
  records: UsageRecord[];
  malformed: number;
}

/** The facts a loader reads a file with; `mtimeMs` stands in for a missing timestamp, as in ccusage. */
export interface AgentFile {
  path: string;
  text: string;
  mtimeMs: number;
  /** Agent options fixed for one scan (codex: the fast tier of its homes). */
  flags: string;
}

/**
 * One coding agent's logs (decisions §5.1): where they are and how a file becomes records.
 * Loaders are pure functions of a file's text, so they run in scan workers too; the shared part
 * (discovery, incremental reads, the disk cache, prices, sums) is the same for every agent.
 */
export interface AgentLoader {
  id: string;
  name: string;
  /** ccusage's override variable: a comma-separated list of paths, unless `envOnePath`. */
  envVar: string;
  /** The variable names one path, commas and all (goose, copilot: ccusage 20.0.24 reads it whole, observed). */
  envOnePath?: boolean;
  /** Default folders, relative to the home directory. */
  defaultDirs: readonly string[];
  /**
   * A variable naming one more file, read besides the folders (copilot:
   * `COPILOT_OTEL_FILE_EXPORTER_PATH`). Such a loader's roots may be files, read as they are.
   */
  alsoFileVar?: string;
  /** The default folder below an absolute `XDG_DATA_HOME` when that is set (opencode), instead of `defaultDirs`. */
  xdgDataDir?: string;
  /** The folders (or, with `alsoFileVar`, files) searched below one configured dir. */
  roots(dir: string): string[];
  /** Files of this agent among those found below its roots. */
  accepts(file: string): boolean;
  /** Drops files the agent does not count (codex: an archived copy of a live session). */
  choose?(files: readonly string[]): Set<string>;
  /**
   * Options read once per scan from the agent's dirs (codex: `service_tier` in config.toml). When
   * they change, the files read with other flags are read again (agent-flags.ts).
   */
  flags?(dirs: readonly string[]): string;
  /**
   * The files `flags` reads that are not below the agent's roots (config.json, config.toml): a
   * watched refresh stats them (nothing watches them). Files below the roots (copilot's
   * session-state) are seen by the watches. Default: none.
   */
  flagInputs?(dirs: readonly string[]): string[];
  /** The part of a scan's flags that reading `file` depends on (kimi: its root's model); default: all of them. */
  flagsOf?(file: string, flags: string): string;
  read(file: AgentFile): AgentFileRecords;
  /** A SQLite store, read with the sqlite3 tool instead of as text (kilo); `read` is then unused. */
  readStore?(file: { path: string; mtimeMs: number; flags: string }): AgentFileRecords;
  /**
   * The exact store paths one configured dir may hold (opencode.db, goose's sessions.db, hermes's
   * state.db): each is checked with a stat, not found by a walk, as ccusage opens exactly those.
   */
  stores?(dir: string): string[];
  /** Which of the agent's files are stores (opencode: its `.db`, not its JSON files); default: all, when `readStore` is set. */
  isStore?(file: string): boolean;
}

/** True when `file` is read with the loader's `readStore` (a SQLite store), not as text. */
export function readsStore(loader: AgentLoader, file: string): boolean {
  return loader.readStore !== undefined && (loader.isStore?.(file) ?? true);
}

/** Agents ccusage reads that Switchboard does not (yet): listed by `GET /api/usage/agents` with why. */
export interface UnsupportedAgent {
  id: string;
  name: string;
  envVar: string;
  defaultDirs: readonly string[];
  reason: string;
}

/** A record with the fields every loader fills the same way; the loader gives the counts. */
export function agentRecord(agent: string, file: string, offset: number, o: {
  timestamp: number;
  model: string | null;
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
  extraTokens: number;
  pricedOnlyTokens?: number;
  sessionId: string;
  projectPath?: string | null;
  key?: string | null;
  loggedCost?: number | null;
  fast?: boolean;
}): UsageRecord {
  return {
    agent,
    extraTokens: o.extraTokens,
    pricedOnlyTokens: o.pricedOnlyTokens ?? 0,
    key: o.key ?? null,
    timestamp: o.timestamp,
    model: o.model,
    inputTokens: o.inputTokens,
    outputTokens: o.outputTokens,
    cacheWrite5mTokens: o.cacheWriteTokens,
    cacheWrite1hTokens: 0,
    cacheReadTokens: o.cacheReadTokens,
    sidechain: false,
    fast: o.fast ?? false,
    sessionId: o.sessionId,
    projectPath: o.projectPath ?? null,
    version: null,
    file,
    offset,
    cost: 0,
    loggedCost: o.loggedCost ?? null,
  };
}

/** ccusage drops records whose tokens are all zero. */
export function hasTokens(r: UsageRecord): boolean {
  return r.inputTokens + r.outputTokens + r.cacheWrite5mTokens + r.cacheWrite1hTokens + r.cacheReadTokens + r.extraTokens > 0;
}
