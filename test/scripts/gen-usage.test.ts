import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateUsage, parseSize } from '../../scripts/gen-usage.mjs';

/** The project's own corpus generator: deterministic, and every line kind a reader must handle. */
const script = path.resolve(__dirname, '../../scripts/gen-usage.mjs');
let dir: string;
const options = { bytes: '2MB', seed: 5, start: '2025-12-28', days: 20, sessions: 3 } as const;

function files(root: string): string[] {
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.jsonl')).sort();
}

function lines(root: string): string[] {
  return files(root).flatMap((f) => fs.readFileSync(path.join(root, f), 'utf8').split('\n'));
}

function parsed(root: string): Array<Record<string, any>> {
  return lines(root).flatMap((l) => {
    try {
      const v = JSON.parse(l);
      return v && typeof v === 'object' && !Array.isArray(v) ? [v] : [];
    } catch {
      return [];
    }
  });
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-gen-usage-'));
  generateUsage({ out: path.join(dir, 'a'), ...options });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('gen-usage', () => {
  it('writes byte-identical files for the same options, from the CLI too, and other files for another seed', () => {
    execFileSync(process.execPath, [script, '--out', path.join(dir, 'b'), '--bytes', '2MB', '--seed', '5', '--start', '2025-12-28', '--days', '20', '--sessions', '3', '--quiet']);
    generateUsage({ out: path.join(dir, 'c'), ...options, seed: 6 });
    const a = files(path.join(dir, 'a'));
    expect(files(path.join(dir, 'b'))).toEqual(a);
    for (const f of a) expect(fs.readFileSync(path.join(dir, 'b', f)).equals(fs.readFileSync(path.join(dir, 'a', f))), f).toBe(true);
    expect(files(path.join(dir, 'c'))).not.toEqual(a);
  });

  it('lands near the byte budget and lists its dirs in the manifest', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'a', 'gen-manifest.json'), 'utf8'));
    expect(manifest.claudeConfigDirs).toEqual(['.', 'instances/work', 'instances/personal']);
    const bytes = files(path.join(dir, 'a')).reduce((n, f) => n + fs.statSync(path.join(dir, 'a', f)).size, 0);
    expect(bytes).toBe(manifest.totals.bytes);
    expect(Math.abs(bytes - parseSize('2MB')) / parseSize('2MB')).toBeLessThan(0.15);
  });

  it('splits replies into lines sharing message.id and requestId, with partial output_tokens on earlier ones', () => {
    const byKey = new Map<string, number[]>();
    for (const l of parsed(path.join(dir, 'a'))) {
      if (l.type !== 'assistant' || !l.requestId) continue;
      const key = `${l.message.id}/${l.requestId}`;
      byKey.set(key, [...(byKey.get(key) ?? []), l.message.usage.output_tokens]);
    }
    const split = [...byKey.values()].filter((v) => v.length > 1);
    expect(split.length).toBeGreaterThan(5);
    expect(split.some((v) => new Set(v).size > 1)).toBe(true);
  });

  it('has 2.0 inline sidechains before 2026-01-07 and 2.1 subagent files mirrored by progress lines after', () => {
    const all = parsed(path.join(dir, 'a'));
    const inline = all.filter((l) => l.isSidechain === true && l.version?.startsWith('2.0.'));
    expect(inline.length).toBeGreaterThan(0);
    const subagentFiles = files(path.join(dir, 'a')).filter((f) => f.includes(`${path.sep}subagents${path.sep}agent-`));
    expect(subagentFiles.length).toBeGreaterThan(0);
    const progress = all.filter((l) => l.type === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    const subIds = new Set(subagentFiles.flatMap((f) => fs.readFileSync(path.join(dir, 'a', f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).message?.id)));
    for (const p of progress) expect(subIds.has(p.data.message.message.id)).toBe(true);
  });

  it('includes proxied models without cache_creation, 1-hour cache writes, Task usage on user lines and damaged lines', () => {
    const text = lines(path.join(dir, 'a'));
    const all = parsed(path.join(dir, 'a'));
    const models = new Set(all.filter((l) => l.type === 'assistant').map((l) => l.message.model));
    for (const m of ['claude-sonnet-4-5-20250929', 'gpt-5', 'gemini-2.5-pro', 'glm-4.6']) expect(models).toContain(m);
    expect(all.filter((l) => ['gpt-5', 'gemini-2.5-pro', 'glm-4.6'].includes(l.message?.model)).every((l) => l.message.usage.cache_creation === undefined)).toBe(true);
    expect(all.some((l) => l.message?.usage?.cache_creation?.ephemeral_1h_input_tokens > 0)).toBe(true);
    expect(all.some((l) => l.type === 'user' && l.toolUseResult?.usage && !l.message.usage)).toBe(true);
    expect(new Set(all.map((l) => l.cwd).filter(Boolean)).size).toBeGreaterThan(1);
    const broken = text.filter((l) => l !== '').filter((l) => {
      try {
        const v = JSON.parse(l);
        return !v || typeof v !== 'object' || Array.isArray(v) || Object.keys(v).length === 0;
      } catch {
        return true;
      }
    });
    expect(broken.length).toBeGreaterThan(0);
  });

  it('refuses bad options with a message and exit code 2', () => {
    const r = spawnSync(process.execPath, [script, '--out', path.join(dir, 'x'), '--bytes', 'lots'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('bad size "lots"');
    expect(spawnSync(process.execPath, [script, '--bytes', '1MB'], { encoding: 'utf8' }).stderr).toContain('--out DIR is required');
    expect(() => generateUsage({ out: path.join(dir, 'y'), start: 'yesterday' })).toThrow('bad --start');
  });
});
