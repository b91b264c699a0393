/**
 * Security decisions for the window as pure predicates (decisions §7): the window shows only the
 * local dashboard; everything else is refused or handed to the system browser after a check.
 */

/** `http://127.0.0.1:<port>`: the only origin the window may show. */
export function appOrigin(port: number): string {
  return `http://127.0.0.1:${port}`;
}

export function isSameOrigin(url: string, origin: string): boolean {
  const parsed = parseUrl(url);
  return parsed !== undefined && parsed.origin === origin && !parsed.username && !parsed.password;
}

/** will-navigate / will-redirect: in-app navigation only (hash routes change nothing here). */
export function isAllowedNavigation(url: string, origin: string): boolean {
  return isSameOrigin(url, origin);
}

/** A link the system browser may open: https only, no embedded credentials. */
export function isSafeExternalUrl(url: unknown): url is string {
  return externalHref(url) !== undefined;
}

/**
 * The parsed, normalised form of a safe external link: what is handed to the OS, so the OS
 * never sees a string that parses differently from what was checked.
 */
export function externalHref(url: unknown): string | undefined {
  if (typeof url !== 'string' || url.length > 2048) return undefined;
  const parsed = parseUrl(url);
  const safe = parsed !== undefined && parsed.protocol === 'https:' && parsed.hostname !== '' && !parsed.username && !parsed.password;
  return safe ? parsed.href : undefined;
}

export interface WindowOpenDecision {
  action: 'deny';
  /** The https link to hand to shell.openExternal, when it passed the check. */
  openExternally?: string;
}

/** setWindowOpenHandler: never a new Electron window; https links go to the system browser. */
export function decideWindowOpen(url: string): WindowOpenDecision {
  const href = externalHref(url);
  return href ? { action: 'deny', openExternally: href } : { action: 'deny' };
}

/** Permission requests and checks (camera, notifications, clipboard, ...): all denied. */
export function allowPermission(_permission: string): boolean {
  return false;
}

/** IPC is answered only for our own page in the top frame. */
export function isTrustedSender(senderUrl: string | undefined, origin: string): boolean {
  return senderUrl !== undefined && isSameOrigin(senderUrl, origin);
}

function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
