import type { TrayCommand, TrayMenuItem } from './tray-menu.js';

/** What the tray knows about profiles, read from GET /api/profiles and the default's presets. */
export interface TrayProfiles {
  list: Array<{ name: string; model: string | null; usesProxy: boolean }>;
  default: string | null;
  /** Preset names of the default profile; null when they could not be read. */
  presets: string[] | null;
}

/**
 * The Profiles submenu (radio items, checked = the default; a click makes that one the default)
 * and, under it, the Presets submenu of the default profile (a click applies the preset). Pure.
 */
export function profileItems(profiles: TrayProfiles | null | undefined, pending: ReadonlySet<string>): TrayMenuItem[] {
  if (profiles === undefined) return [];
  if (profiles === null) return [{ type: 'normal', label: 'Profiles unavailable', enabled: false }];
  const busy = [...pending].some((key) => key.startsWith('set-default:'));
  const radios: TrayMenuItem[] = profiles.list.map((p) => ({
    type: 'radio',
    label: profileLabel(p),
    checked: p.name === profiles.default,
    enabled: !busy,
    command: { kind: 'set-default', profile: p.name },
  }));
  const title = profiles.default ? `Profile: ${profiles.default}` : 'Profile: none chosen';
  const items: TrayMenuItem[] = [
    { type: 'submenu', label: title, enabled: true, items: radios.length > 0 ? radios : [{ type: 'normal', label: 'No profiles yet', enabled: false }] },
  ];
  if (profiles.default) items.push(presetsSubmenu(profiles.default, profiles.presets, pending));
  return items;
}

function presetsSubmenu(profile: string, presets: string[] | null, pending: ReadonlySet<string>): TrayMenuItem {
  const entries: TrayMenuItem[] =
    presets === null
      ? [{ type: 'normal', label: 'Presets unavailable', enabled: false }]
      : presets.length === 0
        ? [{ type: 'normal', label: 'No presets', enabled: false }]
        : presets.map((name) => {
            const command: TrayCommand = { kind: 'apply-preset', profile, preset: name };
            return { type: 'normal', label: name, enabled: !pending.has(commandKey(command)), command };
          });
  return { type: 'submenu', label: `Presets of ${profile}`, enabled: true, items: entries };
}

/** `glm · glm-4.6 · via proxy`: enough to tell profiles apart at a glance. */
function profileLabel(p: TrayProfiles['list'][number]): string {
  return [p.name, p.model, p.usesProxy ? 'via proxy' : null].filter(Boolean).join(' · ');
}

/** One key per command, to mark it pending while its request runs. */
export function commandKey(command: TrayCommand): string {
  return command.kind === 'set-default' ? `set-default:${command.profile}` : `apply-preset:${command.profile}/${command.preset}`;
}
