import fs from 'node:fs/promises';
import path from 'node:path';
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { assistantLine } from '../fixtures/usage/lines.js';
import { apiGet, expectAccessible, watchPage } from './fixtures.js';
import { serve, type Served } from './serve.js';

// Issue 20 on the Usage page: the first scan's progress, projects, sorting and filtering sessions,
// exports, and the layout at 800 px. Transcripts are written here, dated relative to today.
const SHOTS = 'test-results/screenshots';
const DAY = 86_400_000;
// The third is a path a spreadsheet would run as a formula (issue 27 point 7): the exports defuse it.
const PROJECTS = ['/home/dev/src/acme-api', '/home/dev/src/acme-web', '=cmd|/C calc!A0'];
const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-6', 'claude-haiku-4-5-20251001'];

test.use({ actionTimeout: 15_000 });
test.setTimeout(120_000);
// The machine these run on is shared: give the page time.
const expect = baseExpect.configure({ timeout: 20_000 });

/** 30 sessions over the last 20 days, one transcript each, in three projects. */
async function writeTranscripts(agentDir: string, files = 30): Promise<void> {
  const now = Date.now();
  for (let s = 0; s < files; s++) {
    const lines: string[] = [];
    for (let i = 0; i < 5; i++) {
      const ts = new Date(now - ((s * 17) % 20) * DAY - i * 60_000 - 3_600_000).toISOString();
      lines.push(
        assistantLine({
          msg: `m${s}-${i}`,
          req: `r${s}-${i}`,
          ts,
          session: `session-${String(s).padStart(2, '0')}`,
          cwd: PROJECTS[s % 3],
          model: MODELS[(s + i) % 3],
          input: 1000 + ((s * 7919) % 50_000),
          output: 200 + ((s * 104_729) % 9000),
          cacheRead: 10_000 * (s % 5),
          cacheWrite: 500 * (s % 4),
        }),
      );
    }
    const file = path.join(agentDir, 'projects', `p${s % 3}`, `s${s}.jsonl`);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, lines.join('\n') + '\n');
  }
}

async function startWith(env: Record<string, string> = {}): Promise<Served> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return await serve(({ agentDir }) => writeTranscripts(agentDir));
  } finally {
    process.env = saved;
  }
}

test.describe('first scan', () => {
  let app: Served;
  // TEST ONLY knob: each transcript read waits 400 ms, so the 30-file scan takes about 12 s.
  test.beforeAll(async () => {
    app = await startWith({ SWITCHBOARD_TEST_SCAN_DELAY_MS: '400' });
  });
  test.afterAll(() => app.stop());

  test('shows the scan progress, never a zero or "no data", then the figures', async ({ page }) => {
    const watch = watchPage(page);
    await page.goto(`${app.url}/#/usage`);
    const progress = page.getByTestId('scan-progress');
    await expect(progress).toBeVisible();
    await expect(progress).toContainText(/\d+ of 30 files/);
    await expect(page.getByTestId('cache-age')).toHaveText('Reading transcripts…');
    await expect(page.getByTestId('card-cost')).toHaveCount(0);
    await expect(page.getByText(/No data|No daily usage|\$0\.00/)).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/usage-first-scan.png`, fullPage: true });
    await expect(page.getByTestId('card-cost')).toBeVisible({ timeout: 60_000 });
    await expect(progress).toHaveCount(0);
    await expect(page.getByTestId('card-cost').locator('.card-value')).not.toHaveText('$0.00');
    expect(watch.errors).toEqual([]);
    expect(watch.failures).toEqual([]);
  });
});

test.describe('a first scan that fails', () => {
  let app: Served;
  test.beforeAll(async () => {
    // A file where the projects folder should be: the scan cannot list it.
    app = await serve(async ({ agentDir }) => fs.writeFile(path.join(agentDir, 'projects'), 'not a folder'));
  });
  test.afterAll(() => app.stop());

  test('says why and what to do instead of waiting; Refresh after the fix shows the figures', async ({ page }) => {
    const watch = watchPage(page);
    watch.allow(/GET \/api\/usage\/\S+ → 503/);
    watch.allow(/POST \/api\/usage\/refresh → 500/);
    await page.goto(`${app.url}/#/usage`);
    const notice = page.getByText(/Cannot read the usage logs/);
    await expect(notice).toBeVisible();
    await expect(page.getByText(/check that the folder exists and can be read, then press Refresh/)).toBeVisible();
    await expect(page.getByText(/Reading usage logs/)).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/usage-scan-failed.png`, fullPage: true });

    await fs.rm(path.join(app.agentDir, 'projects'));
    await writeTranscripts(app.agentDir, 3);
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await expect(page.getByTestId('table-projects').locator('tbody tr')).toHaveCount(3);
    await expect(notice).toHaveCount(0);
    expect(watch.errors).toEqual([]);
  });
});

test.describe('no transcripts at all (a first run, or logs kept elsewhere)', () => {
  let app: Served;
  test.beforeAll(async () => {
    app = await serve(); // an empty agent dir
  });
  test.afterAll(() => app.stop());

  test('Overview and Usage say where they looked and what to do, never $0.00; the first transcripts then show after Refresh', async ({ page }) => {
    const watch = watchPage(page);
    const dir = path.join(app.agentDir, 'projects');
    await page.goto(`${app.url}/`);
    const overview = page.getByTestId('no-transcripts');
    await expect(overview.getByText('No agent transcripts found')).toBeVisible();
    await expect(overview.getByText(dir, { exact: true })).toBeVisible();
    await expect(page.getByTestId('cost-today')).toHaveCount(0);
    await expect(page.getByText('$0.00')).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/overview-no-transcripts.png`, fullPage: true });

    await page.goto(`${app.url}/#/usage`);
    await expect(page.getByText('No agent transcripts found')).toBeVisible();
    await expect(page.getByText(/CLAUDE_CONFIG_DIR/)).toBeVisible();
    await expect(page.getByText('$0.00')).toHaveCount(0);
    await expect(page.getByTestId('sessions')).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/usage-no-transcripts.png`, fullPage: true });

    await writeTranscripts(app.agentDir, 3);
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await expect(page.getByTestId('table-projects').locator('tbody tr')).toHaveCount(3);
    await expect(page.getByText('No agent transcripts found')).toHaveCount(0);
    expect(watch.errors).toEqual([]);
  });
});

test.describe('answers', () => {
  let app: Served;
  test.beforeAll(async () => {
    app = await startWith();
  });
  test.afterAll(() => app.stop());

  const costs = async (page: Page) => (await page.getByTestId('table-sessions').locator('tbody tr td[data-col="cost"]').allInnerTexts()).map((t) => Number(t.replace(/[$,]/g, '')));

  test('projects by cost; sessions sort and filter through the API; "Costliest this week" is one click', async ({ page }) => {
    const watch = watchPage(page);
    await page.goto(`${app.url}/#/usage`);
    const tz = await page.getByLabel('Timezone', { exact: true }).inputValue();
    await expect(page.getByTestId('table-projects').locator('tbody tr')).toHaveCount(3);

    const sessions = page.getByTestId('sessions');
    await expect(sessions.getByText(/^1–20 of 30$/)).toBeVisible();
    await sessions.getByLabel('Sort by', { exact: true }).selectOption('cost');
    await expect(sessions.getByText(/^1–20 of 30$/)).toBeVisible();
    await expect.poll(async () => { const c = await costs(page); return c.every((v, i) => i === 0 || c[i - 1]! >= v); }).toBe(true);
    const from = (await page.getByLabel('From', { exact: true }).inputValue()).replaceAll('-', '');
    const to = (await page.getByLabel('To', { exact: true }).inputValue()).replaceAll('-', '');
    const api = await apiGet<{ sessions: Array<{ sessionId: string; projectPath: string }> }>(page, `/api/usage/sessions?since=${from}&until=${to}&tz=${encodeURIComponent(tz)}&sort=cost&limit=20`);
    await expect(page.getByTestId('table-sessions').locator('tbody tr').first().locator('[data-session-id]')).toHaveAttribute('data-session-id', api.sessions[0]!.sessionId);
    await sessions.getByLabel('Order', { exact: true }).selectOption('asc');
    await expect.poll(async () => { const c = await costs(page); return c.length > 1 && c.every((v, i) => i === 0 || c[i - 1]! <= v); }).toBe(true);

    await sessions.getByLabel('Project', { exact: true }).selectOption(PROJECTS[1]!);
    await expect(sessions.getByText(/^1–10 of 10$/)).toBeVisible();
    for (const cell of await page.getByTestId('table-sessions').locator('tbody tr .path').allInnerTexts()) expect(cell).toBe(PROJECTS[1]);
    await sessions.getByLabel('Model', { exact: true }).selectOption(MODELS[1]!);
    await expect(page.getByTestId('table-sessions').locator('tbody tr')).not.toHaveCount(0);
    for (const cell of await page.getByTestId('table-sessions').locator('tbody tr td[data-col="models"]').allInnerTexts()) expect(cell).toContain(MODELS[1]);
    await page.screenshot({ path: `${SHOTS}/usage-sessions-filtered.png`, fullPage: true });
    await expectAccessible(page, 'usage page, sessions filtered');
    await sessions.getByRole('button', { name: 'Clear filters' }).click();
    await expect(sessions.getByText(/^1–20 of 30$/)).toBeVisible();

    // A project name in the Projects table filters the sessions to it.
    await page.getByTestId('table-projects').getByRole('button', { name: PROJECTS[2]! }).click();
    await expect(sessions.getByLabel('Project', { exact: true })).toHaveValue(PROJECTS[2]!);

    await page.getByRole('button', { name: 'Costliest this week' }).click();
    await expect(page.getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'false');
    await expect(sessions.getByLabel('Sort by', { exact: true })).toHaveValue('cost');
    await expect(sessions.getByLabel('Order', { exact: true })).toHaveValue('desc');
    await expect(sessions.getByLabel('Project', { exact: true })).toHaveValue('');
    await expect.poll(async () => { const c = await costs(page); return c.length > 0 && c.every((v, i) => i === 0 || c[i - 1]! >= v); }).toBe(true);
    expect(watch.errors).toEqual([]);
    expect(watch.failures).toEqual([]);
  });

  test('every table exports CSV and JSON', async ({ page }) => {
    await page.goto(`${app.url}/#/usage`);
    await expect(page.getByTestId('table-projects').locator('tbody tr')).toHaveCount(3);
    const save = async (group: string, kind: 'CSV' | 'JSON') => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('group', { name: `Export ${group}` }).getByRole('button', { name: kind }).click()]);
      return { name: download.suggestedFilename(), text: await fs.readFile((await download.path())!, 'utf8') };
    };
    const csv = await save('projects', 'CSV');
    expect(csv.name).toBe('usage-projects.csv');
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('projectPath,cost,inputTokens,outputTokens,cacheWriteTokens,cacheReadTokens,totalTokens,sessions,lastActivity,topModel');
    expect(lines).toHaveLength(4);
    expect(lines.filter((l) => l.startsWith("'=cmd|/C calc!A0,"))).toHaveLength(1);
    expect(lines.some((l) => l.startsWith('='))).toBe(false);
    // Sessions come a page of 20 at a time; the export holds every session of the selection, in its order.
    const pager = await page.getByTestId('sessions').getByText(/^1–20 of \d+$/).textContent();
    const total = Number(/of (\d+)/.exec(pager ?? '')![1]);
    expect(total).toBeGreaterThan(20);
    const json = await save('sessions', 'JSON');
    expect(json.name).toBe('usage-sessions.json');
    const exported = JSON.parse(json.text) as Array<{ lastActivity: string }>;
    expect(exported).toHaveLength(total);
    expect(exported.every((s, i) => i === 0 || exported[i - 1]!.lastActivity >= s.lastActivity)).toBe(true);
    const sessionsCsv = await save('sessions', 'CSV');
    expect(sessionsCsv.text.trimEnd().split('\r\n')).toHaveLength(total + 1);
    for (const group of ['daily usage', 'monthly usage', 'hourly usage', 'cost share by model', 'models']) {
      const file = await save(group, 'CSV');
      expect(file.text.split('\r\n')[0]).toMatch(/^(date|month|hour|model),|^model,/);
      // The table marks partial months; the export keeps the month itself, fit for a spreadsheet.
      if (group === 'monthly usage') for (const line of file.text.trimEnd().split('\r\n').slice(1)) expect(line).toMatch(/^\d{4}-\d{2},/);
    }
  });

  test('at 800 px every table stays usable: scrolls sideways, never clipped; model ids stay whole', async ({ page }) => {
    await page.setViewportSize({ width: 800, height: 1100 });
    await page.goto(`${app.url}/#/usage`);
    await expect(page.getByTestId('table-projects').locator('tbody tr')).toHaveCount(3);
    await expect(page.getByTestId('table-sessions').locator('tbody tr')).toHaveCount(20);
    await page.getByTestId('chart-models').getByRole('button', { name: 'Table' }).click();
    // Plain JS run in the page (this file is type-checked without the DOM library).
    const report = (await page.evaluate(`(() => {
      const out = [];
      for (const wrap of document.querySelectorAll('.table-wrap')) {
        if (wrap.offsetParent === null) continue; // a hidden table view
        const box = wrap.getBoundingClientRect();
        const overflow = getComputedStyle(wrap).overflowX;
        if (box.right > document.documentElement.clientWidth + 1) out.push(wrap.getAttribute('aria-label') + ': sticks out to ' + box.right);
        if (wrap.scrollWidth > wrap.clientWidth && overflow !== 'auto' && overflow !== 'scroll') out.push(wrap.getAttribute('aria-label') + ': clipped');
      }
      let models = 0;
      for (const code of document.querySelectorAll('code.model')) {
        if (code.offsetParent === null) continue;
        models++;
        if (code.getClientRects().length !== 1) out.push('model id broken: ' + code.textContent);
      }
      return { out, models, documentScroll: document.documentElement.scrollWidth - document.documentElement.clientWidth };
    })()`)) as { out: string[]; models: number; documentScroll: number };
    expect(report.models).toBeGreaterThan(20);
    expect(report.out).toEqual([]);
    expect(report.documentScroll).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/usage-800px.png`, fullPage: true });
    await page.getByTestId('table-models').scrollIntoViewIfNeeded();
    await page.getByTestId('table-models').screenshot({ path: `${SHOTS}/usage-800px-models-table.png` });
    await page.getByTestId('sessions').screenshot({ path: `${SHOTS}/usage-800px-sessions.png` });
  });
});
