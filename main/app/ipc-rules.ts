import { externalHref, isTrustedSender } from './guards.js';

/**
 * The only two IPC channels (style habit 11): data travels over HTTP, so the preload needs just
 * the app version and a checked way to open an https link in the system browser.
 * preload/index.cts spells the same strings (a sandboxed preload cannot import this file).
 */
export const IPC_CHANNELS = {
  version: 'switchboard:version',
  openExternal: 'switchboard:open-external',
} as const;

/** The URL to open for an open-external request, or undefined when sender or URL fail the check. */
export function externalUrlToOpen(url: unknown, senderUrl: string | undefined, origin: string): string | undefined {
  if (!isTrustedSender(senderUrl, origin)) return undefined;
  return externalHref(url);
}
