/** The config.yaml keys the Settings form offers; everything else is reachable in the JSON view. */
export interface ConfigField {
  path: string;
  label: string;
  /** `percent` edits a 0–1 fraction as 1–100; empty stores null (off). `list`: comma-separated, empty removes the key. */
  kind: 'text' | 'bool' | 'zone' | 'percent' | 'list';
  hint?: string;
  /** What the server uses when the key is absent (shown as the value then). */
  fallback?: unknown;
}

/** Coding agents whose logs the usage service reads (decisions §5.1): on/off and folders. */
const AGENTS: Array<[id: string, name: string, variable: string, where: string]> = [
  ['claude', 'Claude Code', 'CLAUDE_CONFIG_DIR', 'the agent dir'],
  ['codex', 'Codex CLI', 'CODEX_HOME', '~/.codex'],
  ['gemini', 'Gemini CLI', 'GEMINI_DATA_DIR', '~/.gemini/tmp'],
  ['opencode', 'OpenCode', 'OPENCODE_DATA_DIR', '~/.local/share/opencode'],
  ['amp', 'Amp', 'AMP_DATA_DIR', '~/.local/share/amp'],
  ['qwen', 'Qwen Code', 'QWEN_DATA_DIR', '~/.qwen'],
  ['pi', 'pi-agent', 'PI_AGENT_DIR', '~/.pi/agent/sessions'],
  ['openclaw', 'OpenClaw', 'OPENCLAW_DIR', '~/.openclaw'],
  ['droid', 'Droid', 'DROID_SESSIONS_DIR', '~/.factory/sessions'],
  ['kilo', 'Kilo', 'KILO_DATA_DIR', '~/.local/share/kilo'],
  ['goose', 'Goose', 'GOOSE_PATH_ROOT', '~/.local/share/goose/sessions and two more (a folder with sessions.db, or a root with data/sessions/sessions.db)'],
  ['hermes', 'Hermes Agent', 'HERMES_HOME', '~/.hermes'],
  ['kimi', 'Kimi CLI', 'KIMI_DATA_DIR', '~/.kimi and ~/.kimi-code'],
  ['codebuff', 'Codebuff', 'CODEBUFF_DATA_DIR', '~/.config/manicode, manicode-dev and manicode-staging'],
  ['copilot', 'GitHub Copilot CLI', 'COPILOT_HOME', '~/.copilot (plus the file $COPILOT_OTEL_FILE_EXPORTER_PATH names)'],
];

const agentFields: ConfigField[] = AGENTS.flatMap(([id, name, variable, where]): ConfigField[] => [
  { path: `usage.agents.${id}.enabled`, label: `Read ${name} usage`, kind: 'bool', fallback: true },
  ...(id === 'claude'
    ? []
    : [{ path: `usage.agents.${id}.dirs`, label: `${name} folders`, kind: 'list' as const, hint: `Comma-separated. Empty: $${variable}, else ${where}.` }]),
]);

export const CONFIG_GROUPS: Array<{ title: string; fields: ConfigField[] }> = [
  {
    title: 'Proxy',
    fields: [
      { path: 'proxy.auto_start', label: 'Start the proxy when Switchboard starts', kind: 'bool' },
      { path: 'proxy.keep_running_on_quit', label: 'Keep the proxy running after quitting', kind: 'bool' },
      { path: 'proxy.binary_path', label: 'External proxy binary', kind: 'text', hint: 'Empty uses the built-in engine.' },
      { path: 'proxy.binary_version', label: 'External binary version', kind: 'text', hint: 'Used by the update check.' },
      { path: 'proxy.update_feed_url', label: 'Update feed URL', kind: 'text' },
    ],
  },
  {
    title: 'Usage',
    fields: [{ path: 'usage.timezone', label: 'Timezone for grouping by day and hour', kind: 'zone', hint: 'Empty uses the system zone.' }],
  },
  { title: 'Coding agents (usage)', fields: agentFields },
  {
    title: 'Agent tool',
    fields: [
      { path: 'agent_tool.binary', label: 'Binary (name on PATH or absolute path)', kind: 'text' },
      { path: 'agent_tool.settings_path', label: 'Settings file', kind: 'text' },
    ],
  },
  {
    title: 'Desktop',
    fields: [
      { path: 'desktop.launch_at_login', label: 'Launch at login', kind: 'bool' },
      { path: 'desktop.notifications', label: 'Desktop notifications', kind: 'bool' },
      {
        path: 'desktop.error_rate_notice',
        label: 'Notify when the proxy error rate reaches (%)',
        kind: 'percent',
        hint: 'Over the last hour, at least 5 requests; once until it falls again. Empty = off.',
      },
    ],
  },
];

export function getPath(obj: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);
}

export function setPath(obj: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  const copy = { ...obj };
  if (rest.length === 0) copy[head!] = value;
  else copy[head!] = setPath((obj[head!] as Record<string, unknown>) ?? {}, rest.join('.'), value);
  return copy;
}
