import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { proxyStatusResponse } from '../../../main/api/schemas/proxy.js';
import type * as U from '../../../main/api/schemas/usage.js';
import { QUOTA_PROVIDERS } from '../../../main/services/proxy/quota/quota-service.js';
import * as T from '../../../renderer/src/api-types.js';

const root = path.resolve(__dirname, '../../..');

type Out<S extends z.ZodType> = z.output<S>;

/** Relative and package imports of a file, type-only ones included: tsc follows both. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/** Every main/ file the renderer's typecheck reads: what the renderer imports from main/, and what those import. */
function mainFilesSeenByRenderer(): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    for (const spec of importsOf(file)) {
      if (!spec.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts');
      if (!target.startsWith(path.join(root, 'main') + path.sep) || seen.has(target)) continue;
      seen.add(target);
      visit(target);
    }
  };
  for (const file of sourceFiles(path.join(root, 'renderer/src'))) visit(file);
  return [...seen];
}

describe('renderer api-types', () => {
  it('reads main/ only through files that need no package but zod', () => {
    // One `node:` or express import here would put Node's globals into the browser typecheck.
    const files = mainFilesSeenByRenderer();
    expect(files.map((f) => path.relative(root, f))).toContain('main/api/schemas/proxy.ts');
    const offences = files.flatMap((file) =>
      importsOf(file)
        .filter((spec) => !spec.startsWith('.') && spec !== 'zod')
        .map((spec) => `${path.relative(root, file)} -> ${spec}`),
    );
    expect(offences).toEqual([]);
  });

  it('lists the same quota providers as the server', () => {
    expect(T.PROVIDERS).toEqual(QUOTA_PROVIDERS);
    expectTypeOf<T.Provider>().toEqualTypeOf<(typeof QUOTA_PROVIDERS)[number]>();
  });

  // Type-level: fails `tsc -p tsconfig.json` (part of npm test), not vitest. What the server sends
  // must fit each hand-written view, and a view names no top-level field the server lacks.
  it('keeps the hand-written views in step with their schemas', () => {
    type Summary = Out<typeof U.summaryResponse>;
    type Daily = Out<typeof U.dailyResponse>['daily'][number];
    type Hourly = Out<typeof U.hourlyResponse>['hourly'][number];
    type Monthly = Out<typeof U.monthlyResponse>['monthly'][number];
    type Model = Out<typeof U.modelsResponse>['models'][number];
    type Insights = Out<typeof U.insightsResponse>;
    type Sessions = Out<typeof U.sessionsResponse>;
    type Status = Out<typeof U.statusResponse>;
    type Refresh = Out<typeof U.refreshResponse>;

    expectTypeOf<Summary>().toExtend<T.UsageSummary>();
    expectTypeOf<keyof T.UsageSummary>().toExtend<keyof Summary>();
    expectTypeOf<Daily>().toExtend<T.DailyEntry>();
    expectTypeOf<keyof T.DailyEntry>().toExtend<keyof Daily>();
    expectTypeOf<Hourly>().toExtend<T.HourlyEntry>();
    expectTypeOf<keyof T.HourlyEntry>().toExtend<keyof Hourly>();
    expectTypeOf<Monthly>().toExtend<T.MonthlyEntry>();
    expectTypeOf<keyof T.MonthlyEntry>().toExtend<keyof Monthly>();
    expectTypeOf<Model>().toExtend<T.ModelEntry>();
    expectTypeOf<keyof T.ModelEntry>().toExtend<keyof Model>();
    expectTypeOf<Insights>().toExtend<T.Insights>();
    expectTypeOf<keyof T.Anomaly>().toExtend<keyof Insights['anomalies'][number]>();
    expectTypeOf<Sessions>().toExtend<T.SessionsPage>();
    expectTypeOf<keyof T.Session>().toExtend<keyof Sessions['sessions'][number]>();
    expectTypeOf<Status>().toExtend<T.CacheStatus>();
    expectTypeOf<keyof T.CacheStatus>().toExtend<keyof Status>();
    expectTypeOf<Refresh>().toExtend<T.RefreshResult>();
    expectTypeOf<keyof T.RefreshResult>().toExtend<keyof Refresh>();
    expectTypeOf<Out<typeof proxyStatusResponse>>().toExtend<T.ProxyStatus>();
  });
});
