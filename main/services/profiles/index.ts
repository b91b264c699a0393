import type { ServiceContext } from '../context.js';
import { ClaudeCodeService } from '../claude-code/claude-code-service.js';
import type { PresetsService } from '../settings/presets-service.js';
import type { SettingsService } from '../settings/settings-service.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { KeyRotation } from './key-rotation.js';
import { modelSuggestions, type ModelSuggestion } from './model-suggestions.js';
import { ProfilesService } from './profiles-service.js';
import type { ProxyAddress } from './proxy-address.js';

export interface ProfilesArea {
  profiles: ProfilesService;
  claudeCode: ClaudeCodeService;
  rotation: KeyRotation;
  /** For the tokens service: profiles that used `oldKey` through the proxy get `newKey`. */
  followApiKey(oldKey: string, newKey: string): Promise<string[]>;
  /** For the proxy config file: profiles that pointed at `from` move to `to`. */
  followAddress(from: ProxyAddress, to: ProxyAddress): Promise<string[]>;
}

/** The switching area (issue 18), built on the settings store so it shares its write path. */
export function createProfilesArea(ctx: ServiceContext, deps: { store: SettingsStore; settings: SettingsService; apiKey: () => Promise<string> }): ProfilesArea {
  const profiles = new ProfilesService(ctx, deps);
  const rotation = new KeyRotation({ ...deps, logger: ctx.logger, announce: (names) => profiles.announce('proxy-change', names) });
  return {
    profiles,
    claudeCode: new ClaudeCodeService(ctx, deps.store),
    rotation,
    async followApiKey(oldKey, newKey) {
      const address = await profiles.proxyAddress();
      return rotation.follow({ from: address, to: address, oldKey, newKey });
    },
    async followAddress(from, to) {
      const key = await deps.apiKey();
      return rotation.follow({ from, to, oldKey: key, newKey: key });
    },
  };
}

/** Models every preset of every profile names (default and tiers). */
export async function presetModels(settings: SettingsService, presets: PresetsService): Promise<string[]> {
  const out: string[] = [];
  for (const { name } of await settings.listProfiles()) {
    const list = await presets.list(name).catch(() => []);
    for (const preset of list) {
      for (const field of ['default', 'opus', 'sonnet', 'haiku']) {
        if (typeof preset[field] === 'string') out.push(preset[field]);
      }
    }
  }
  return out;
}

export { modelSuggestions, type ModelSuggestion };
