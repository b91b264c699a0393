import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../helpers/app.js';

const SAVER = fileURLToPath(new URL('../../../fixtures/settings-saver.mjs', import.meta.url));
const SAVES = 1500;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await fs.writeFile(path.join(app.home, 'a.settings.json'), JSON.stringify({ env: { PROVIDER_BASE_URL: 'https://a.example', PROVIDER_MODEL: 'model-a' } }));
  await fs.writeFile(path.join(app.home, 'b.settings.json'), JSON.stringify({ env: { PROVIDER_BASE_URL: 'https://b.example' } }));
});
afterAll(() => app.stop());

/** Runs the saver to its end while applying a and b in turn; resolves with how many applies ran during it. */
async function applyWhileSaving(file: string, how: 'rename' | 'inplace'): Promise<{ applies: number; refused: number }> {
  const child = spawn(process.execPath, [SAVER, file, String(SAVES), how], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let running = true;
  void exited.then(() => (running = false));
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  let applies = 0;
  let refused = 0;
  while (running) {
    try {
      await app.services.claudeCode.apply(applies % 2 === 0 ? 'a' : 'b');
      applies++;
    } catch (err) {
      // an in-place save caught half-written is not JSON, and a file saved during every attempt is
      // left as saved: both refused, nothing replaced
      if (!['invalid-json', 'busy'].includes((err as { kind?: string }).kind ?? '')) throw err;
      refused++;
    }
  }
  expect(await exited).toBe(0);
  return { applies, refused };
}

describe('an apply never overwrites a save made during it (issue 27 point 2)', () => {
  // Saved as editors and Claude Code save (temp file, rename): not one save may be lost. An
  // in-place writer (truncate, write) that opens the file before the rename and writes after the
  // last check writes into the replaced file: no check can see that, so the bound there is "almost
  // none" (docs/settings.md; before the check, about half of them were lost).
  for (const [how, allowed] of [['rename', 0], ['inplace', SAVES / 200]] as const) {
    it(`loses ${allowed === 0 ? 'none' : 'almost none'} of ${SAVES} saves made in a tight loop (${how} saves) while applies run`, async () => {
      const file = path.join(app.agentDir, 'settings.json');
      await fs.writeFile(file, '{"env": {"MY_OWN": "1"}}\n');
      const { applies, refused } = await applyWhileSaving(file, how);
      const final = JSON.parse(await fs.readFile(file, 'utf8'));
      const saves = new Set<number>(final.saves);
      const lost = Array.from({ length: SAVES }, (_, i) => i + 1).filter((n) => !saves.has(n));
      if (allowed === 0) expect(lost).toEqual([]);
      else expect(lost.length).toBeLessThanOrEqual(allowed);
      // The two really overlapped: the loop only runs while the saver saves, and at least one apply
      // replaced the file in that time. (Under a loop this tight most attempts meet a newer save and
      // start again, up to 100 times: on a machine under stress-ng the saver may finish after only a
      // couple of applies, so the count is not asked to be higher; an apply that meets a newer save
      // on each of its attempts is refused, leaving the file as saved.)
      expect(applies).toBeGreaterThan(0);
      expect(applies + refused).toBeGreaterThan(0);
      expect(final.env.MY_OWN).toBe('1');
    }, 120_000);
  }
});
