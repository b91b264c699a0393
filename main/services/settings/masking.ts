import { maskSecrets, unmaskSecrets } from '../../infra/secret-rule.js';
import type { SettingsData } from './settings-store.js';

export { isSensitiveKey, MASK } from '../../infra/secret-rule.js';

/**
 * The masked profile read (decisions §2): every sensitive value, in `env` and at any depth
 * outside it, becomes `********` by the one rule in infra/secret-rule.ts.
 */
export function maskSettings(settings: SettingsData): SettingsData {
  return maskSecrets(settings);
}

/** The settings a PUT stores: wherever the client sent back a mask, the stored secret stays. */
export function unmaskSettings<T extends Record<string, unknown>>(incoming: T, stored: SettingsData | undefined): T {
  return unmaskSecrets(incoming, stored);
}
