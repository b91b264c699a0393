import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatModels } from '../../../main/cli/bridge-format.js';
import { main } from '../../../main/cli/index.js';
import type { CliIo } from '../../../main/cli/io.js';
import { escapeControls, terminalJson, terminalText } from '../../../main/infra/terminal-text.js';
import { formatTable } from '../../../main/cli/usage-table.js';
import { runUsage } from '../../../main/cli/usage.js';
import { runUse } from '../../../main/cli/use.js';
import { assistantLine } from '../../fixtures/usage/lines.js';
import { HOSTILE, HOSTILE_ALL, RAW_CONTROL } from '../../fixtures/terminal/hostile-strings.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

/** Issue 27 point 6: no string from outside reaches the terminal with a raw control character. */

function capture(): { io: CliIo; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { io: { out: (t) => void (out += t), err: (t) => void (err += t) }, out: () => out, err: () => err };
}

describe('terminal-text', () => {
  it.each(Object.entries(HOSTILE))('escapes %s visibly, keeping the printable text', (_name, text) => {
    const shown = escapeControls(text);
    expect(shown).not.toMatch(RAW_CONTROL);
    expect(shown.replace(/\\x[0-9a-f]{2}|\\u[0-9a-f]{4}/g, '')).toBe(text.replace(new RegExp(RAW_CONTROL.source, 'gu'), ''));
  });

  it('names the common ones and leaves the rest of Unicode, and backslashes, alone', () => {
    expect(escapeControls('a\u001b[2Jb')).toBe('a\\x1b[2Jb');
    expect(escapeControls('\u009b\u007f\u202e')).toBe('\\x9b\\x7f\\u202e');
    expect(escapeControls('line\nnext\ttab\r')).toBe('line\\nnext\\ttab\\r');
    expect(escapeControls('C:\\Users\\dev\\プロジェクト 🚀')).toBe('C:\\Users\\dev\\プロジェクト 🚀');
    expect(terminalText('ours\nkept \u001b]0;x\u0007\n')).toBe('ours\nkept \\x1b]0;x\\x07\n');
  });

  it('JSON for a terminal escapes DEL, C1 and bidi too, and parses back to the same strings', () => {
    const value = { model: HOSTILE_ALL, list: ['\u0085', '\u2028'] };
    const text = terminalJson(value);
    expect(text).not.toMatch(RAW_CONTROL);
    expect(JSON.stringify(value)).toMatch(RAW_CONTROL); // what JSON.stringify alone leaves raw
    expect(JSON.parse(text)).toEqual(value);
  });

  it('a column cut never splits an escape, from either end', () => {
    const cells = [[`ab\u001bcdef\u009bgh`]];
    for (let width = 3; width <= 20; width++) {
      for (const cutStart of [false, true]) {
        const text = formatTable([{ header: 'M', shrink: { min: 1, cutStart } }], cells, width);
        const cell = text.split('\n')[2]!;
        expect(cell).not.toMatch(RAW_CONTROL);
        // Every backslash starts a whole escape.
        expect(cell.replace(/\\x[0-9a-f]{2}/g, '')).not.toContain('\\');
        expect([...cell.trimEnd()].length).toBeLessThanOrEqual(Math.max(width, 1));
      }
    }
  });
});

describe('switchboard usage over hostile transcripts', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('switchboard-cli-hostile-'));
    const agentDir = path.join(dir, 'agent');
    const file = path.join(agentDir, 'projects', 'p', 's.jsonl');
    await fs.mkdir(path.dirname(file), { recursive: true });
    const lines = Object.entries(HOSTILE).map(([name, text], i) =>
      assistantLine({ msg: `m${i}`, req: `r${i}`, ts: `2026-01-0${i + 1}T09:00:00.000Z`, input: 10, output: 5, model: `claude-sonnet-4-5${text}`, session: `s-${name}${text}`, cwd: `/w/${name}${text}` }),
    );
    await fs.writeFile(file, lines.join('\n') + '\n');
    env = { SWITCHBOARD_HOME: path.join(dir, 'home'), SWITCHBOARD_AGENT_DIR: agentDir, HOME: dir };
  });
  afterAll(() => cleanup());

  it.each(['daily', 'monthly', 'session', 'projects', 'models'])('%s: tables wide and narrow, and --json, print no raw control character', async (report) => {
    for (const width of [400, 60]) {
      const c = capture();
      expect(await runUsage([report, '--tz', 'UTC'], env, c.io, width)).toBe(0);
      expect(c.out()).not.toMatch(RAW_CONTROL);
      expect(c.err()).not.toMatch(RAW_CONTROL);
      if (report !== 'monthly' && width === 400) expect(c.out()).toContain('\\x1b'); // shown, not dropped
    }
    const json = capture();
    expect(await runUsage([report, '--tz', 'UTC', '--json'], env, json.io)).toBe(0);
    expect(json.out()).not.toMatch(RAW_CONTROL);
    // The JSON still holds the exact strings (monthly names no model).
    if (report !== 'monthly') expect(JSON.stringify(JSON.parse(json.out()))).toContain(JSON.stringify(HOSTILE.c1).slice(1, -1));
  });

  it('a cut at the terminal width lines up on the escaped text', async () => {
    const c = capture();
    expect(await runUsage(['projects', '--tz', 'UTC'], env, c.io, 70)).toBe(0);
    const lines = c.out().trimEnd().split('\n');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(70);
  });
});

describe('switchboard use with hostile profile values', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('switchboard-cli-use-hostile-'));
    const home = path.join(dir, 'home');
    await fs.mkdir(home, { recursive: true });
    const profile = { env: { PROVIDER_BASE_URL: `https://api.example/${HOSTILE.link}`, PROVIDER_MODEL: `glm${HOSTILE.osc52}${HOSTILE.c1}${HOSTILE.bidi}` } };
    await fs.writeFile(path.join(home, 'evil.settings.json'), JSON.stringify(profile));
    env = { HOME: dir, SWITCHBOARD_HOME: home, SWITCHBOARD_AGENT_DIR: path.join(dir, 'agent') };
  });
  afterAll(() => cleanup());

  it('lists and sets the default with every value escaped', async () => {
    const listed = capture();
    expect(await runUse([], env, listed.io)).toBe(0);
    expect(listed.out()).toContain('evil');
    expect(listed.out()).not.toMatch(RAW_CONTROL);
    const set = capture();
    expect(await runUse(['evil'], env, set.io)).toBe(0);
    expect(set.out()).toMatch(/^Default profile: evil \(/);
    expect(set.out()).toContain('\\x1b]52;c;');
    expect(set.out()).not.toMatch(RAW_CONTROL);
  });
});

describe('switchboard bridge models with a hostile catalog', () => {
  it('escapes ids, names and providers, aligned on the escaped width', () => {
    const text = formatModels(
      {
        current: `gpt-5${HOSTILE.clear}`,
        models: [
          { id: `evil${HOSTILE.osc52}`, name: `Name${HOSTILE.link}`, provider: `p${HOSTILE.c1}`, isDefault: false },
          { id: 'gpt-5', name: 'GPT-5', provider: 'openai', isDefault: true },
        ],
      } as Parameters<typeof formatModels>[0],
      true,
    );
    expect(text).not.toMatch(RAW_CONTROL);
    const [, first, second] = text.split('\n');
    expect(first!.indexOf('Name')).toBe(second!.indexOf('GPT-5'));
  });
});

describe('CLI error messages', () => {
  async function stderrOf(args: string[]): Promise<{ code: number; err: string }> {
    let err = '';
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err += String(chunk);
      return true;
    });
    try {
      return { code: await main(args), err };
    } finally {
      spy.mockRestore();
    }
  }

  it.each([
    ['an unknown command', [HOSTILE.osc52]],
    ['an unknown help topic', ['help', HOSTILE.clear]],
    ['a bad usage option', ['usage', 'daily', '--tz', HOSTILE.c1]],
    ['an unknown usage report', ['usage', HOSTILE.link]],
    ['an unknown profile for use', ['use', `x${HOSTILE.bidi}`]],
    ['an unknown bridge command', ['bridge', HOSTILE.osc52]],
  ])('%s is quoted escaped', async (_name, args) => {
    const { code, err } = await stderrOf(args);
    expect(code).toBe(2);
    expect(err).toMatch(/^switchboard: /);
    expect(err).not.toMatch(RAW_CONTROL);
  });
});
