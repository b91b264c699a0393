import { bridgeSectionSchema, type BridgeSection } from '../app-config/schema.js';
import type { AppConfigStore } from '../app-config/store.js';

/** A validated partial `cursor` section (the API schema or the CLI builds it). */
export type BridgeSettingsPatch = Partial<BridgeSection>;

export async function readBridgeSettings(store: AppConfigStore): Promise<BridgeSection> {
  return (await store.read()).config.cursor;
}

/** Sets only the given keys under `cursor:` in config.yaml; comments and other keys survive. */
export async function writeBridgeSettings(store: AppConfigStore, patch: BridgeSettingsPatch): Promise<BridgeSection> {
  const { snapshot } = await store.update((doc) => {
    for (const [key, value] of Object.entries(patch)) {
      if (value !== undefined) doc.setIn(['cursor', key], value);
    }
  });
  return bridgeSectionSchema.parse(snapshot.config.cursor);
}
