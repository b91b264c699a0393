/** The counts and billing flags of one request, as a line reports them and a record keeps them. */
export interface RequestUsage {
  /** Milliseconds since the epoch. */
  timestamp: number;
  /** As logged; null when the line names no model. */
  model: string | null;
  inputTokens: number;
  outputTokens: number;
  cacheWrite5mTokens: number;
  cacheWrite1hTokens: number;
  cacheReadTokens: number;
  /**
   * A copy that loses to any other copy of the same request (dedupe.ts): Claude Code's sidechain
   * lines, and OpenCode's legacy message files beside its database (agents/opencode.ts).
   */
  sidechain: boolean;
  /** `usage.speed === "fast"`: some models bill a multiple of the list price. */
  fast: boolean;
}

/** What one transcript line says about one API request, before de-duplication (decisions §5). */
export interface ParsedUsage extends RequestUsage {
  /** `costUSD` as logged; null when absent. */
  loggedCost: number | null;
  messageId: string | null;
  requestId: string | null;
  sessionId: string | null;
  cwd: string | null;
  version: string | null;
}

/** A parsed line placed in its file: the unit that de-duplication and every aggregate work on. */
export interface UsageRecord extends RequestUsage {
  /** The coding agent that wrote it (agents/registry.ts); `claude` for Claude Code transcripts. */
  agent: string;
  /**
   * Tokens the agent counts beyond the four kinds (reasoning, thoughts, an unexplained rest of a
   * logged total): in that agent's total as ccusage counts it, priced at the output rate. 0 for Claude.
   */
  extraTokens: number;
  /**
   * A correction to the tokens priced at the output rate, beyond `extraTokens`: positive for Gemini
   * thoughts its logged total leaves out (ccusage 20.0.24 still prices them), negative for the rest
   * of a pi or OpenClaw logged total (in the total, not priced). 0 for every other agent.
   */
  pricedOnlyTokens: number;
  /** De-duplication key; null for lines without `message.id`, which are never merged. */
  key: string | null;
  sessionId: string;
  projectPath: string | null;
  version: string | null;
  /** File and byte offset of the line: "first seen" means first in path order, then offset. */
  file: string;
  offset: number;
  /** USD, from the built-in price table; filled when the record enters the store. */
  cost: number;
  /** The line's own `costUSD`, when it logged one (cost modes auto and display use it). */
  loggedCost: number | null;
}

/** Token and cost sums shared by daily, hourly, monthly and model rows. */
export interface Totals {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cost: number;
}

export const SYNTHETIC_MODEL = '<synthetic>';
