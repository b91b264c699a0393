import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** The other agents' log generator: the same options give byte-identical files, another seed others. */
const script = path.resolve(__dirname, '../../scripts/gen-agents.mjs');
const dirs: string[] = [];

function generate(seed: number): Map<string, string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-gen-agents-'));
  dirs.push(dir);
  execFileSync(process.execPath, [script, '--out', dir, '--seed', String(seed), '--sessions', '3', '--turns', '6', '--quiet']);
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile() && f !== 'gen-agents-manifest.json').sort();
  return new Map(files.map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
}

afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('scripts/gen-agents.mjs', () => {
  it('is deterministic, writes every agent, and a seed changes the data', () => {
    const a = generate(3);
    const b = generate(3);
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [f, text] of a) expect(b.get(f), f).toBe(text);
    const tops = new Set([...a.keys()].map((f) => f.split(path.sep)[0]));
    expect([...tops].sort()).toEqual(['amp', 'codebuff', 'codex', 'copilot', 'droid', 'gemini', 'goose', 'hermes', 'kilo', 'kimi', 'openclaw', 'opencode', 'pi', 'qwen']);
    expect([...a.keys()].filter((f) => f.endsWith('.db')).sort()).toEqual([path.join('goose', 'data', 'sessions', 'sessions.db'), path.join('hermes', 'h1', 'state.db'), path.join('hermes', 'h2', 'state.db'), path.join('kilo', 'kilo.db'), path.join('opencode', 'a', 'opencode.db'), path.join('opencode', 'b', 'opencode-beta.db'), path.join('opencode', 'b', 'opencode-zeta.db')]);
    expect([...a.keys()].some((f) => f.includes('archived_sessions'))).toBe(true);
    expect([...a.values()].some((t) => t.includes('thread_spawn'))).toBe(true);
    const c = generate(4);
    expect([...c.values()].join('')).not.toBe([...a.values()].join(''));
  });
});
