import { describe, expect, it } from 'vitest';
import { CONFIG_GROUPS } from '../../../../renderer/src/pages/settings-fields.js';
import { CLAUDE, LOADERS } from '../../../../main/services/usage/agents/registry.js';

/** Issue 32.4: Settings has an on/off switch and folders for every agent the usage service reads. */
describe('Settings › Coding agents (usage)', () => {
  const paths = CONFIG_GROUPS.flatMap((g) => g.fields.map((f) => f.path));
  const read = [CLAUDE.id, ...LOADERS.map((l) => l.id)];

  it('offers a switch for every agent that is read, and no other', () => {
    const switches = paths.filter((p) => /^usage\.agents\.[^.]+\.enabled$/.test(p)).map((p) => p.split('.')[2]);
    expect([...switches].sort()).toEqual([...read].sort());
  });

  it('offers folders for every agent but Claude Code (its folder is the agent dir)', () => {
    const folders = paths.filter((p) => /^usage\.agents\.[^.]+\.dirs$/.test(p)).map((p) => p.split('.')[2]);
    expect([...folders].sort()).toEqual(read.filter((id) => id !== CLAUDE.id).sort());
  });
});
