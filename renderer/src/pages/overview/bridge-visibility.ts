import type { BridgeStatus } from '../../api-types.js';

/**
 * The deprecated editor bridge earns a place on the first screen only when someone uses it:
 * enabled, or holding credentials (valid or expired). Otherwise it stays on its own page (issue 28.4).
 */
export function bridgeInUse(s: Pick<BridgeStatus, 'enabled' | 'authenticated' | 'tokenExpired' | 'daemonRunning'>): boolean {
  return s.enabled || s.authenticated || s.tokenExpired || s.daemonRunning;
}
