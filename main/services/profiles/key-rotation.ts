import { errorMessage } from '../../infra/file-stat.js';
import type { Logger } from '../../infra/logger.js';
import type { SettingsService } from '../settings/settings-service.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { followedProxyChange } from './profile-rewrite.js';
import { pointsAtProxy, proxyBaseUrl, sameAddress, type ProxyAddress } from './proxy-address.js';

/** What changed about the proxy a profile may point at. */
export interface ProxyChange {
  /** The address before (and, for a port change, after). */
  from: ProxyAddress;
  to: ProxyAddress;
  oldKey: string;
  newKey: string;
}

export interface KeyRotationDeps {
  store: SettingsStore;
  settings: SettingsService;
  logger: Logger;
  /** Told the names of the profiles rewritten (the `profiles` event). */
  announce: (profiles: string[]) => void;
}

/** Thrown inside a store update to leave a file untouched (the store writes whatever a plan returns). */
class Unchanged extends Error {}

/**
 * decisions §2 "Key rotation follows the profiles": when the proxy API key or the proxy's address
 * changes, every profile whose base URL is the proxy's and whose token is the old key gets the
 * new values (backup first, through the settings store). A profile that cannot be read is
 * skipped with a warning: the change that caused this has already been made.
 */
export class KeyRotation {
  constructor(private readonly deps: KeyRotationDeps) {}

  async follow(change: ProxyChange): Promise<string[]> {
    const keyChanged = change.oldKey !== change.newKey;
    const moved = !sameAddress(change.from, change.to);
    if (!keyChanged && !moved) return [];
    const next = {
      ...(keyChanged ? { apiKey: change.newKey } : {}),
      ...(moved ? { baseUrl: proxyBaseUrl(change.to) } : {}),
    };
    const matchesOld = (url: string) => pointsAtProxy(url, change.from);
    const updated: string[] = [];
    for (const { name } of await this.deps.settings.listProfiles()) {
      try {
        await this.deps.store.update(name, (current) => {
          const rewritten = current?.data ? followedProxyChange(current.data, matchesOld, change.oldKey, next) : null;
          if (!rewritten) throw new Unchanged();
          return { next: rewritten, result: undefined };
        });
        updated.push(name);
      } catch (err) {
        if (!(err instanceof Unchanged)) this.deps.logger.warn(`profile ${name} not updated after the proxy change: ${errorMessage(err)}`);
      }
    }
    if (updated.length > 0) this.deps.announce(updated);
    return updated;
  }
}
