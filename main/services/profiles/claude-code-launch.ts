import path from 'node:path';

/**
 * Issue 28.1: Claude Code ranks its settings' `env` above the process environment, and the
 * `--settings` of its command line above the user's settings.json. So after "Use for Claude
 * Code" wrote profile A into settings.json, `switchboard run B` with B only in the environment
 * still ran on A. A launch of Claude Code therefore also carries the profile as `--settings`.
 */

/** Names Claude Code's command goes by: npm's `claude`, Windows' `claude.exe` / `claude.cmd`. */
const CLAUDE_NAMES = new Set(['claude', 'claude-code']);

/**
 * Whether `executable` (as found, or its resolved real path) is Claude Code: by its file name, or
 * by lying inside npm's `@anthropic-ai/claude-code` package (`cli.js`). Other agents get the
 * environment only: an unknown `--settings` would stop them.
 */
export function isClaudeCode(...paths: string[]): boolean {
  return paths.some((file) => {
    // win32.basename splits on `/` and `\` alike, so a Windows path is read right anywhere.
    const base = path.win32.basename(file).toLowerCase().replace(/\.(exe|cmd|bat|ps1)$/, '');
    return CLAUDE_NAMES.has(base) || /[\\/]@anthropic-ai[\\/]claude-code[\\/]/.test(file);
  });
}

/** The `--settings` document: only `env`, so the user's permissions, hooks and model stay theirs. */
export function launchSettings(vars: Record<string, string>): string {
  return `${JSON.stringify({ env: vars }, null, 2)}\n`;
}
