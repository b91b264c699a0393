import Store from 'electron-store';
import type { Rect } from './window-state.js';

/**
 * electron-store holds UI preferences only (window bounds, last page). Everything a user
 * configures lives in {config_dir}/config.yaml, where the API, the CLI and the window see it.
 */
export interface UiPrefsData {
  bounds?: Rect;
  lastPage?: string;
}

export interface UiPrefs {
  get<K extends keyof UiPrefsData>(key: K): unknown;
  set<K extends keyof UiPrefsData>(key: K, value: Required<UiPrefsData>[K]): void;
}

export function createUiPrefs(): UiPrefs {
  // A corrupt file is a lost window position, never a crash.
  const store = new Store<UiPrefsData>({ name: 'ui-preferences', clearInvalidConfig: true });
  return {
    get: (key) => store.get(key),
    set: (key, value) => store.set({ [key]: value }),
  };
}
