import { findExecutable } from '../../infra/find-executable.js';

/** A coding agent this page can look after: its command and its JSON settings file. */
export interface KnownAgent {
  binary: string;
  name: string;
  settingsPath: string;
}

/**
 * Agents looked for on PATH when `agent_tool.binary` is left at its default and that default is
 * not installed (issue 28.4), in this order. Codex CLI is not here: its settings are TOML
 * (`~/.codex/config.toml`) and this page edits JSON.
 */
export const KNOWN_AGENTS: readonly KnownAgent[] = [
  { binary: 'droid', name: 'Factory Droid', settingsPath: '~/.factory/settings.json' },
  { binary: 'claude', name: 'Claude Code', settingsPath: '~/.claude/settings.json' },
  { binary: 'gemini', name: 'Gemini CLI', settingsPath: '~/.gemini/settings.json' },
  { binary: 'opencode', name: 'opencode', settingsPath: '~/.config/opencode/opencode.json' },
];

export const DEFAULT_AGENT = KNOWN_AGENTS[0]!;

export interface DetectedAgent {
  binary: string;
  name: string;
  path: string;
}

/** Where the settings come from: the configured binary, one found on PATH, or none at all. */
export type AgentSource = 'config' | 'detected' | 'none';

export interface AgentChoice {
  binary: string;
  name: string | null;
  settingsPath: string;
  source: AgentSource;
  /** Every known agent found on PATH. */
  detected: DetectedAgent[];
}

/**
 * Which agent the page shows. A binary the user changed from the default is theirs, installed or
 * not. The default (`droid`) is used when installed; otherwise the first known agent on PATH,
 * with its own settings file unless the user changed that path; otherwise none.
 */
export async function chooseAgent(configured: { binary: string; settingsPath: string }, env: NodeJS.ProcessEnv): Promise<AgentChoice> {
  const detected = await detectAgents(env);
  const known = KNOWN_AGENTS.find((a) => a.binary === configured.binary);
  if (configured.binary !== DEFAULT_AGENT.binary || detected.some((a) => a.binary === configured.binary)) {
    return { ...configured, name: known?.name ?? null, source: 'config', detected };
  }
  const found = detected[0];
  if (!found) return { ...configured, name: DEFAULT_AGENT.name, source: 'none', detected };
  const own = KNOWN_AGENTS.find((a) => a.binary === found.binary)?.settingsPath ?? configured.settingsPath;
  const settingsPath = configured.settingsPath === DEFAULT_AGENT.settingsPath ? own : configured.settingsPath;
  return { binary: found.binary, name: found.name, settingsPath, source: 'detected', detected };
}

export async function detectAgents(env: NodeJS.ProcessEnv): Promise<DetectedAgent[]> {
  const found = await Promise.all(
    KNOWN_AGENTS.map(async (a): Promise<DetectedAgent | null> => {
      const file = await findExecutable(a.binary, env);
      return file === null ? null : { binary: a.binary, name: a.name, path: file };
    }),
  );
  return found.filter((a): a is DetectedAgent => a !== null);
}

/** The one sentence shown when no agent is installed. */
export function noAgentWarning(): string {
  return `No agent tool is installed: none of ${KNOWN_AGENTS.map((a) => a.binary).join(', ')} is on PATH. Install one, or name its binary in Settings (agent_tool.binary).`;
}
