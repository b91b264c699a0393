import { errorMessage } from '../../infra/file-stat.js';
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
  const claudeCode = new ClaudeCodeService(ctx, deps.store);
  // Claude Code's settings.json holds a copy of the applied profile's env: it follows the
  // profile's rewrites (preset applied, routed, key rotated), never at the cost of the rewrite.
  const followInClaudeCode = async (names: string[]) => {
    await claudeCode.followProfiles(names).then(
      () => undefined,
      (err: unknown) => ctx.logger.warn(`Claude Code settings not updated: ${errorMessage(err)}`),
    );
  };
  const profiles = new ProfilesService(ctx, { ...deps, afterRewrite: followInClaudeCode });
  const announce = async (names: string[]) => {
    await followInClaudeCode(names);
    profiles.announce('proxy-change', names);
  };
  const rotation = new KeyRotation({ ...deps, logger: ctx.logger, announce });
  return {
    profiles,
    claudeCode,
    rotation,
    async followApiKey(oldKey, newKey) {
      const address = await profiles.proxyAddress();
      return rotation.follow({ from: address, to: address, oldKey, newKey });
    },
    async followAddress(from, to) {
      // The YAML is already written: a failure here is logged, never the PUT's answer.
      try {
        const key = await deps.apiKey();
        return await rotation.follow({ from, to, oldKey: key, newKey: key });
      } catch (err) {
        ctx.logger.warn(`profiles not updated after the proxy address change: ${errorMessage(err)}`);
        return [];
      }
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
