import { envEntryProblem } from '../services/profiles/launch-env.js';

/** The shells `switchboard env` writes for. */
export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type Shell = (typeof SHELLS)[number];

export interface ExportText {
  text: string;
  /** Keys left out: no valid variable name, or a value the environment cannot hold (NUL). */
  skipped: string[];
}

/**
 * Lines that set `vars` when evaluated by `shell`, each value in that shell's literal quoting, so
 * quotes, `$`, backticks and newlines in a value stay text. Pure.
 */
export function exportLines(vars: Record<string, string>, shell: Shell): ExportText {
  const lines: string[] = [];
  const skipped: string[] = [];
  for (const [key, value] of Object.entries(vars)) {
    if (envEntryProblem(key, value) !== null) {
      skipped.push(key);
      continue;
    }
    lines.push(exportLine(key, value, shell));
  }
  return { text: lines.map((l) => `${l}\n`).join(''), skipped };
}

function exportLine(key: string, value: string, shell: Shell): string {
  switch (shell) {
    case 'bash':
    case 'zsh':
      // Inside single quotes nothing is special; a quote ends, is escaped, and reopens.
      return `export ${key}='${value.replace(/'/g, `'\\''`)}'`;
    case 'fish':
      // fish single quotes know two escapes: \' and \\.
      return `set -gx ${key} '${value.replace(/[\\']/g, (c) => `\\${c}`)}'`;
    case 'powershell':
      return `$env:${key} = ${powershellLiteral(value)}`;
  }
}

/**
 * PowerShell splits piped output into lines, so a value stays on one line: single quotes when it
 * has no line break (the typographic single quotes end such a string too, so each is doubled),
 * else a double-quoted string with backtick escapes for line breaks, `$`, quotes and backticks.
 */
function powershellLiteral(value: string): string {
  if (!/[\r\n]/.test(value)) return `'${value.replace(/['\u2018\u2019\u201A\u201B]/g, (c) => c + c)}'`;
  const escaped = value.replace(/[`$"\u201C\u201D\u201E\r\n]/g, (c) => (c === '\n' ? '`n' : c === '\r' ? '`r' : `\`${c}`));
  return `"${escaped}"`;
}

/** The shell to write for: `--shell`, else the login shell's name, else PowerShell on Windows or bash. */
export function defaultShell(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Shell {
  const name = (env.SHELL ?? '').split(/[\\/]/).pop() ?? '';
  if (name === 'zsh' || name === 'fish' || name === 'bash') return name;
  return platform === 'win32' ? 'powershell' : 'bash';
}

/** How to load the lines in each shell, for the help text and the comment line. */
export function evalHint(shell: Shell, args: string): string {
  if (shell === 'fish') return `switchboard env ${args} --shell fish | source`;
  if (shell === 'powershell') return `switchboard env ${args} --shell powershell | Out-String | Invoke-Expression`;
  return `eval "$(switchboard env ${args})"`;
}
