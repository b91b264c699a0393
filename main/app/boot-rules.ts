import { HomeLockedError } from '../infra/home-lock.js';

/** Start-up decisions of the desktop shell, as plain functions. */

/** The API port: `$SWITCHBOARD_PORT` like `switchboard serve`, else 3000 (decisions §0). */
export function desktopPort(env: NodeJS.ProcessEnv): number {
  const raw = env.SWITCHBOARD_PORT?.trim();
  if (raw && /^\d+$/.test(raw) && Number(raw) <= 65535) return Number(raw);
  return 3000;
}

/**
 * What to tell the user when the API cannot start. Quitting with a clear message beats a tray
 * with nothing behind it; the usual cause is a `switchboard serve` already on the port.
 */
export function startupFailureText(err: unknown, port: number): { title: string; body: string } {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE') {
    return {
      title: 'Switchboard cannot start',
      body:
        `Port ${port} on 127.0.0.1 is already in use, perhaps by \`switchboard serve\` or another ` +
        `copy of the app. Stop it, or start Switchboard with SWITCHBOARD_PORT set to a free port.`,
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { title: 'Switchboard cannot start', body: `The local API did not start: ${message}` };
}

/**
 * What a launch does when the API does not start. A second desktop instance never gets here
 * (Electron's single-instance lock hands it to the running window: `second-instance` shows it).
 * When the home belongs to another process (`switchboard serve`, or an app with another user
 * data dir), that one has no window of ours to focus: open its dashboard and quit quietly.
 */
export type StartupFailureAction =
  | { kind: 'open-running'; url: string }
  | { kind: 'error-box'; title: string; body: string };

export function startupFailureAction(err: unknown, port: number): StartupFailureAction {
  // Only ever the loopback dashboard: the URL comes from a file, not from us.
  if (err instanceof HomeLockedError && err.owner.url && /^http:\/\/127\.0\.0\.1:\d{1,5}$/.test(err.owner.url)) return { kind: 'open-running', url: `${err.owner.url}/` };
  if (err instanceof HomeLockedError) {
    return { kind: 'error-box', title: 'Switchboard is already running', body: `${err.message}. Wait for it to start, or quit it first.` };
  }
  return { kind: 'error-box', ...startupFailureText(err, port) };
}
