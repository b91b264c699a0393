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
