import type { BridgeModelList } from '../services/bridge/model-list.js';
import type { BridgeStatus } from '../services/bridge/bridge-service.js';
import { escapeControls as shown } from '../infra/terminal-text.js';

const yesNo = (v: boolean) => (v ? 'yes' : 'no');

/** `switchboard bridge status` as a few aligned lines. */
export function formatStatus(s: BridgeStatus, tokenFile: string): string {
  let credentials: string;
  if (s.authMethod === null) credentials = 'none (run `switchboard bridge auth`)';
  else {
    const state = s.tokenExpired ? 'EXPIRED (run `switchboard bridge auth` again)' : 'valid';
    const expires = s.expiresAt !== null ? new Date(s.expiresAt).toISOString() : 'unknown';
    credentials = `${state} (${s.authMethod}, imported ${s.tokenAgeHours} h ago, expires ${expires})`;
  }
  const daemon = s.daemonRunning ? `running (pid ${s.pid}, http://127.0.0.1:${s.port})` : `stopped (port ${s.port})`;
  return [
    'Editor bridge (deprecated, beta)',
    `  Enabled:      ${yesNo(s.enabled)}`,
    `  Credentials:  ${credentials}`,
    `  Daemon:       ${daemon}`,
    ...(s.daemonRunning ? [`  Client token: ${tokenFile}`] : []),
    `  Auto start:   ${yesNo(s.autoStart)}`,
    `  Ghost mode:   ${yesNo(s.ghostMode)}`,
    '',
  ].join('\n');
}

/**
 * `switchboard bridge models`: one model a line, the default marked with `*`. The ids and names
 * come from the upstream's catalog: escaped (terminal-text.ts), aligned on the escaped width.
 */
export function formatModels(list: BridgeModelList, fromDaemon: boolean): string {
  const width = Math.max(...list.models.map((m) => shown(m.id).length), 2);
  const lines = list.models.map((m) => `${m.isDefault ? '*' : ' '} ${shown(m.id).padEnd(width)}  ${shown(m.name)} (${shown(m.provider)})`);
  const source = fromDaemon ? 'from the running daemon (cached 5 minutes)' : 'built-in list (start the daemon for the live catalog)';
  return [`Models, ${source}; * = default (configured: ${shown(list.current)})`, ...lines, ''].join('\n');
}
