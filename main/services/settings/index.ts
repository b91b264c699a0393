import type { ServiceContext } from '../context.js';
import { PresetsService } from './presets-service.js';
import { SettingsService } from './settings-service.js';
import { SettingsStore } from './settings-store.js';

/** Settings and presets share one store, so both go through the same serialised write path. */
export function createSettingsServices(ctx: ServiceContext): { settings: SettingsService; presets: PresetsService; store: SettingsStore } {
  const store = new SettingsStore({ paths: ctx.paths, clock: ctx.clock });
  return { settings: new SettingsService(store, ctx.paths, ctx.logger), presets: new PresetsService(store), store };
}
