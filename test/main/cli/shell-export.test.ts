import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { defaultShell, exportLines } from '../../../main/cli/shell-export.js';

/** Values an attacker-controlled profile could hold: quotes, expansions, commands, newlines. */
const NASTY: Record<string, string> = {
  PLAIN: 'sk-abc123',
  SINGLE: "it's",
  DOUBLE: 'say "hi"',
  DOLLAR: '$HOME ${PATH} $(touch /tmp/pwned-sb) `id`',
  NEWLINE: 'line1\nline2\n',
  CRLF: 'a\r\nb',
  BACKSLASH: 'C:\\path\\ends\\',
  SEMI: "'; rm -rf / #",
  EMPTY: '',
  UNICODE: 'café ‘curly’ “dq” ✓',
  FISHY: "\\' trailing backslash \\",
};

describe('exportLines', () => {
  it('writes each shell its own literal form', () => {
    const vars = { A: "x'y", B: 'p$q' };
    expect(exportLines(vars, 'bash').text).toBe(`export A='x'\\''y'\nexport B='p$q'\n`);
    expect(exportLines(vars, 'zsh').text).toBe(`export A='x'\\''y'\nexport B='p$q'\n`);
    expect(exportLines(vars, 'fish').text).toBe(`set -gx A 'x\\'y'\nset -gx B 'p$q'\n`);
    expect(exportLines(vars, 'powershell').text).toBe(`$env:A = 'x''y'\n$env:B = 'p$q'\n`);
  });

  it('keeps a PowerShell value with a line break on one line, escaped', () => {
    expect(exportLines({ A: 'a\n$b"`c' }, 'powershell').text).toBe('$env:A = "a`n`$b`"``c"\n');
    expect(exportLines({ A: '‘x’' }, 'powershell').text).toBe("$env:A = '‘‘x’’'\n");
  });

  it('leaves out keys that are no variable name and values holding NUL', () => {
    const { text, skipped } = exportLines({ 'BAD KEY': 'x', '$(id)': 'x', '1X': 'x', OK_1: 'y', NUL: 'a\0b' }, 'bash');
    expect(text).toBe("export OK_1='y'\n");
    expect(skipped).toEqual(['BAD KEY', '$(id)', '1X', 'NUL']);
  });

  it('round-trips every nasty value through a real bash eval unchanged', async () => {
    const { text } = exportLines(NASTY, 'bash');
    const script = `${text}\nnode -e 'process.stdout.write(JSON.stringify(Object.fromEntries(${JSON.stringify(Object.keys(NASTY))}.map(k => [k, process.env[k]]))))'`;
    // The lines arrive on stdin and go through eval "$(...)", exactly as the docs tell users to load them.
    const out = await new Promise<string>((resolve, reject) => {
      const child = execFile('bash', ['-c', 'eval "$(cat)"'], { env: { PATH: process.env.PATH } }, (err, so) => (err ? reject(err) : resolve(so)));
      child.stdin!.end(script);
    });
    expect(JSON.parse(out)).toEqual(NASTY);
  });
});

describe('defaultShell', () => {
  it('follows $SHELL, else PowerShell on Windows, else bash', () => {
    expect(defaultShell({ SHELL: '/usr/bin/zsh' }, 'linux')).toBe('zsh');
    expect(defaultShell({ SHELL: '/opt/homebrew/bin/fish' }, 'darwin')).toBe('fish');
    expect(defaultShell({ SHELL: '/bin/sh' }, 'linux')).toBe('bash');
    expect(defaultShell({}, 'win32')).toBe('powershell');
  });
});
