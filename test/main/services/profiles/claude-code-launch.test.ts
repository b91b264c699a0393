import { describe, expect, it } from 'vitest';
import { isClaudeCode, launchSettings } from '../../../../main/services/profiles/claude-code-launch.js';

describe('isClaudeCode: which agents get --settings (issue 28.1)', () => {
  it.each([
    ['/usr/local/bin/claude', true],
    ['claude', true],
    ['C:\\Users\\me\\AppData\\Roaming\\npm\\claude.cmd', true],
    ['/opt/x/Claude.exe', true],
    ['/home/me/bin/claude-code', true],
    ['/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js', true],
    ['/usr/local/bin/codex', false],
    ['/usr/local/bin/claude-wrapper', false],
    ['/usr/local/bin/stand-in-agent', false],
    ['/home/claude/bin/aider', false],
  ])('%s → %s', (file, expected) => expect(isClaudeCode(file)).toBe(expected));

  it('a link named otherwise counts when its target is Claude Code', () => {
    expect(isClaudeCode('/usr/local/bin/cc', '/usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe')).toBe(true);
  });
});

describe('launchSettings', () => {
  it('holds only env, the launch env as given', () => {
    expect(JSON.parse(launchSettings({ ANTHROPIC_BASE_URL: 'http://b', ANTHROPIC_MODEL: 'm' }))).toEqual({ env: { ANTHROPIC_BASE_URL: 'http://b', ANTHROPIC_MODEL: 'm' } });
  });
});
