import type { BridgeModelList } from '../services/bridge/model-list.js';
import type { BridgeStatus } from '../services/bridge/bridge-service.js';

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

/** `switchboard bridge models`: one model a line, the default marked with `*`. */
export function formatModels(list: BridgeModelList, fromDaemon: boolean): string {
  const width = Math.max(...list.models.map((m) => m.id.length), 2);
  const lines = list.models.map((m) => `${m.isDefault ? '*' : ' '} ${m.id.padEnd(width)}  ${m.name} (${m.provider})`);
  const source = fromDaemon ? 'from the running daemon (cached 5 minutes)' : 'built-in list (start the daemon for the live catalog)';
  return [`Models, ${source}; * = default (configured: ${list.current})`, ...lines, ''].join('\n');
}
