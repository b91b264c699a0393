import path from 'node:path';

/**
 * Issue 28.1: Claude Code ranks its settings' `env` above the process environment, and the
 * `--settings` of its command line above the user's settings.json. So after "Use for Claude
 * Code" wrote profile A into settings.json, `switchboard run B` with B only in the environment
 * still ran on A. A launch of Claude Code therefore also carries the profile as `--settings`.
 */

/** Names Claude Code's command goes by (npm's `claude`, Windows' `claude.exe` / `claude.cmd`). */
const CLAUDE_NAMES = new Set(['claude', 'claude-code']);

/** Whether `executable` is Claude Code, by its file name: other agents get the environment only. */
export function isClaudeCode(executable: string): boolean {
  const base = path.basename(executable).toLowerCase().replace(/\.(exe|cmd|bat|ps1)$/, '');
  return CLAUDE_NAMES.has(base);
}

/** The `--settings` document: only `env`, so the user's permissions, hooks and model stay theirs. */
export function launchSettings(vars: Record<string, string>): string {
  return `${JSON.stringify({ env: vars }, null, 2)}\n`;
}
