import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Imports flow app|cli → api → services → infra, and engines → infra (style guide). */
const forbidden: Record<string, string[]> = {
  'main/infra': ['main/services', 'main/api', 'main/app', 'main/cli', 'main/engines'],
  'main/services': ['main/api', 'main/app', 'main/cli'],
  'main/api': ['main/app', 'main/cli'],
  'main/engines': ['main/services', 'main/api', 'main/app', 'main/cli'],
  'main/cli': ['main/app'],
};

const root = path.resolve(__dirname, '..');

/**
 * Runtime code the dashboard shares with main/: one pure rule that must agree everywhere
 * (decisions §2, what is a secret). Nothing else; a new entry needs the same import-free shape.
 */
const RENDERER_SHARED = new Set(['main/infra/secret-rule.ts']);

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|cts|mts)$/.test(e.name) ? [full] : [];
  });
}

function importsOf(file: string): Array<{ spec: string; typeOnly: boolean }> {
  const text = fs.readFileSync(file, 'utf8');
  const out: Array<{ spec: string; typeOnly: boolean }> = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
    out.push({ spec: m[3]!, typeOnly: Boolean(m[2]) });
  }
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ spec: m[1]!, typeOnly: false });
  return out;
}

describe('architecture', () => {
  for (const [layer, banned] of Object.entries(forbidden)) {
    it(`${layer} imports none of ${banned.join(', ')}`, () => {
      const offences: string[] = [];
      for (const file of sourceFiles(path.join(root, layer))) {
        for (const { spec } of importsOf(file)) {
          if (!spec.startsWith('.')) continue;
          const target = path.relative(root, path.resolve(path.dirname(file), spec));
          if (banned.some((b) => target === b || target.startsWith(b + '/'))) {
            offences.push(`${path.relative(root, file)} -> ${target}`);
          }
        }
      }
      expect(offences).toEqual([]);
    });
  }

  it('renderer imports from main/ only with import type, except the one shared secret rule', () => {
    const offences: string[] = [];
    for (const file of sourceFiles(path.join(root, 'renderer/src'))) {
      for (const { spec, typeOnly } of importsOf(file)) {
        const target = path.relative(root, path.resolve(path.dirname(file), spec)).replace(/\.js$/, '.ts');
        if (spec.startsWith('.') && target.startsWith('main/') && !typeOnly && !RENDERER_SHARED.has(target)) offences.push(`${file} -> ${target}`);
      }
    }
    expect(offences).toEqual([]);
  });

  it('the files the renderer shares with main/ import nothing, so they run in the browser unchanged', () => {
    for (const file of RENDERER_SHARED) {
      expect(importsOf(path.join(root, file)), file).toEqual([]);
      expect(fs.readFileSync(path.join(root, file), 'utf8'), file).not.toMatch(/\brequire\(|\bprocess\.|\bBuffer\b/);
    }
  });

  it('only the Electron layer imports electron', () => {
    const offences = sourceFiles(path.join(root, 'main'))
      .filter((f) => !f.includes(`${path.sep}app${path.sep}`))
      .filter((f) => importsOf(f).some(({ spec, typeOnly }) => spec === 'electron' && !typeOnly));
    expect(offences).toEqual([]);
  });
});
