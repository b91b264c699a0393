import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { applyConfigToDocument } from '../../../../main/services/app-config/apply-to-document.js';

function apply(text: string, current: Record<string, unknown>, next: Record<string, unknown>): string {
  const doc = YAML.parseDocument(text);
  applyConfigToDocument(doc, current, next);
  return doc.toString();
}

describe('applyConfigToDocument', () => {
  const text = `# Switchboard config
# second header line
usage:
  # the zone used for daily totals
  timezone: UTC # keep me
# an unknown key
custom_tool:
  level: 3
proxy:
  auto_start: false
`;
  const current = { usage: { timezone: 'UTC' }, custom_tool: { level: 3 }, proxy: { auto_start: false, keep_running_on_quit: false } };

  it('changes a scalar in place: comments above, beside and elsewhere survive', () => {
    const out = apply(text, current, { ...current, usage: { timezone: 'Europe/Paris' } });
    expect(out).toBe(text.replace('timezone: UTC # keep me', 'timezone: Europe/Paris # keep me'));
  });

  it('leaves the file untouched when nothing changed, even for defaulted keys not in the file', () => {
    expect(apply(text, current, structuredClone(current))).toBe(text);
  });

  it('adds only the changed key of a defaulted value, not the whole section of defaults', () => {
    const out = apply(text, current, { ...current, proxy: { auto_start: false, keep_running_on_quit: true } });
    expect(out).toBe(text.replace('  auto_start: false\n', '  auto_start: false\n  keep_running_on_quit: true\n'));
  });

  it('creates a missing section with only its changed keys', () => {
    const out = apply(text, { ...current, desktop: { notifications: true, launch_at_login: false } }, {
      ...current,
      desktop: { notifications: false, launch_at_login: false },
    });
    expect(out).toBe(`${text}desktop:\n  notifications: false\n`);
  });

  it('removes keys the client removed, keeping the rest of the file', () => {
    const { custom_tool: _gone, ...rest } = current;
    const out = apply(text, current, rest);
    expect(out).not.toContain('custom_tool');
    expect(out).toContain('# the zone used for daily totals');
    expect(out).toContain('timezone: UTC # keep me');
  });

  it('replaces arrays and type changes whole', () => {
    const out = apply('list: [1, 2]\nflag: 1\n', { list: [1, 2], flag: 1 }, { list: [1, 2, 3], flag: { nested: true } });
    expect(YAML.parse(out)).toEqual({ list: [1, 2, 3], flag: { nested: true } });
  });

  it('does not mistake inherited names for keys', () => {
    const out = apply('a: 1\n', { a: 1 }, { a: 1, toString: 'x', constructor: 'y' });
    expect(YAML.parse(out)).toEqual({ a: 1, toString: 'x', constructor: 'y' });
  });
});
