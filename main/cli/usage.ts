import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { appBuild } from '../infra/app-version.js';
import type { Clock } from '../infra/clock.js';
import { identityKey, identityOf, statIdentity } from '../infra/file-stat.js';
import type { LogLevel } from '../infra/logger.js';
import { createPaths, resolveHomes, type Paths } from '../infra/paths.js';
import { AGENT_IDS, LOADERS } from '../services/usage/agents/registry.js';
import { USAGE_CACHE_TAG } from '../services/usage/cache-version.js';
import { isCostMode } from '../services/usage/cost-mode.js';
import type { DailyEntry, MonthlyEntry } from '../services/usage/daily.js';
import { findTranscripts, transcriptsDir, usageRoots } from '../services/usage/discover.js';
import type { ModelEntry } from '../services/usage/models.js';
import { priceTableId } from '../services/usage/price-table.js';
import type { ProjectEntry } from '../services/usage/projects.js';
import type { SessionEntry } from '../services/usage/sessions.js';
import type { UsageParams, UsageService } from '../services/usage/usage-service.js';
import { isValidTimeZone, parseCompactDate, systemTimeZone } from '../services/usage/zone-calendar.js';
import { CliError } from './args.js';
import { processIo, terminalIo, type CliIo } from './io.js';
import { terminalJson } from '../infra/terminal-text.js';
import { DAY_FORMS, defaultUsageZone, parseRelativeDay, relativeDayOf, todayIn, understoodLine } from './relative-date.js';
import { filesDigest, UsageMemo } from './usage-memo.js';
import { shapedList } from '../api/usage-shape.js';
import { dailyTable, modelTable, monthlyTable, projectTable, sessionTable } from './usage-reports.js';

export const USAGE_USAGE = `Usage: switchboard usage <report> [options]

Reports (the same figures as the dashboard and /api/usage/*):
  daily       one row per local day
  monthly     one row per local month
  session     sessions, costliest first
  projects    per project (cwd), costliest first
  models      per model, costliest first

Options:
  --since DAY        first day (inclusive): YYYYMMDD, today, yesterday, 7d (the last 7 days,
                     today included), 4w (the last 4 weeks); relative days count in the --tz zone
  --until DAY        last day (inclusive), the same forms
  --tz ZONE          IANA time zone for days (default usage.timezone, else the system zone)
  --mode MODE        auto (default: a logged costUSD, else the price table), calculate, display
  --agent ID|all     one coding agent (claude, codex, gemini, opencode, amp, …); default all
  --by-agent         daily and monthly: one line per agent under each period (JSON: agentBreakdown);
                     session and projects: an Agent column
  --json             the API's JSON answer instead of a table
  -h, --help         this help

Reads the usage disk cache the app keeps ({config_dir}/.cache/usage-cache.json); no server is
needed. A cache younger than a minute answers as it is; an older one is brought up to date
incrementally first (only new and appended transcript bytes are read), and no cache means a scan.
`;

const REPORTS = ['daily', 'monthly', 'session', 'projects', 'models'] as const;
type Report = (typeof REPORTS)[number];

interface Options {
  report: Report;
  params: UsageParams;
  json: boolean;
  /** `--since/--until` given as relative days (`7d`), resolved against today once the zone is known. */
  relative: Partial<Record<DayOption, string>>;
  byAgent: boolean;
}

type DayOption = 'since' | 'until';

/**
 * `switchboard usage <report>`: 0 with the report, 1 when the transcripts cannot be read. An
 * answer kept from an earlier run on the same data is printed without loading the usage service
 * (cli/usage-memo.ts); otherwise the disk cache is loaded, brought up to date, and the answer kept.
 */
export async function runUsage(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo, width = terminalWidth(env), clock?: Clock): Promise<number> {
  io = terminalIo(io); // transcripts' text reaches the terminal only escaped (terminal-text.ts)
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    io.out(USAGE_USAGE);
    return 0;
  }
  const options = parseUsageArgs(argv);
  const paths = createPaths(resolveHomes(env));
  const now = clock ? clock.now() : Date.now();
  await resolveRelativeDays(options, paths, now, io);
  const memo = new UsageMemo(paths.usageCliAnswers, paths.usageCache);
  const key = await memoKey(options, paths, env);
  const kept = await memo.lookup(key, now, () => findTranscripts(usageRoots(paths.agentDir, paths.instancesDir)));
  if (kept !== undefined) {
    io.out(format(options, kept as Answer, width));
    return 0;
  }
  const [{ systemClock }, { createLogger }, { AppConfigStore }, { AppEvents }, { UsageService, FRESH_MS }] = await Promise.all([
    import('../infra/clock.js'),
    import('../infra/logger.js'),
    import('../services/app-config/store.js'),
    import('../services/events.js'),
    import('../services/usage/usage-service.js'),
  ]);
  const logger = createLogger((env.SWITCHBOARD_LOG_LEVEL as LogLevel | undefined) ?? 'error');
  const ctx = { paths, clock: clock ?? systemClock, logger, events: new AppEvents(), appConfig: new AppConfigStore(paths.appConfig), env };
  const service = new UsageService(ctx);
  service.start({ announceAnomalies: false });
  try {
    // A cache past the fresh minute is brought up to date first: a CLI has no "later" in which
    // a background refresh could land.
    const status = await service.status();
    if (status.cacheAge === null || status.cacheAge >= FRESH_MS) await service.refresh();
    // The disk cache write a scan left waiting starts now: its plan takes this thread, then its
    // bytes go out through the thread pool while the answer is computed and printed.
    await service.startPersist();
    const answer = await compute(service, options);
    io.out(format(options, answer, width));
    // The write's bytes went out meanwhile: let the loop hand it their completion, so that its
    // end (the rename) runs while the files digest below takes this thread. Two turns: the first may come
    // in this turn's check phase, before the poll phase that delivers thread-pool completions.
    await yieldToLoop();
    await yieldToLoop();
    // Zeros from no logs at all are not an answer: say where we looked (stderr: --json stays clean),
    // and keep nothing, so the next run says it again.
    const transcripts = service.transcriptFiles();
    if (transcripts.length === 0) {
      io.err(`switchboard: no agent transcripts found in ${transcriptsDir(paths.agentDir)}; if Claude Code keeps them elsewhere, set CLAUDE_CONFIG_DIR (or SWITCHBOARD_AGENT_DIR) to that folder\n`);
      return 0;
    }
    const files = filesDigest(transcripts); // while the write ends
    const disk = await service.diskCacheIdentity(); // once the write has ended
    if (disk) await memo.remember(key, { cache: identityOf(disk), lastFetch: disk.lastFetch, files }, answer, (m) => logger.warn(m));
    return 0;
  } catch (err) {
    io.err(`switchboard: cannot read usage: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await service.stop(); // waits for the disk cache write a scan started
  }
}

/**
 * Everything an answer depends on besides the data: the report and its options, the build (its
 * aggregation code and price table), the disk cache format (it fixes how the data was counted:
 * a source checkout keeps its build name across changes), the agent dir and instances dir, and,
 * for a default zone or cost mode, what they are read from (config.yaml as a file, and the
 * system zone).
 */
async function memoKey(o: Options, paths: Paths, env: NodeJS.ProcessEnv): Promise<string> {
  const p = o.params;
  // Whose logs: the disk cache holds one agent dir's, but a memo entry must not outlive a switch.
  const parts = [o.report, p.since ?? '', p.until ?? '', p.tz ?? '', p.mode ?? '', appBuild(), priceTableId(), USAGE_CACHE_TAG, paths.agentDir, paths.instancesDir];
  parts.push(p.agent ?? 'all', o.byAgent ? 'by-agent' : '', ...LOADERS.flatMap((l) => [l.envVar, ...(l.alsoFileVar !== undefined ? [l.alsoFileVar] : [])].map((v) => `${v}=${env[v] ?? ''}`)), `HOME=${env.HOME ?? ''}`, `XDG_DATA_HOME=${env.XDG_DATA_HOME ?? ''}`);
  // config.yaml always counts: besides the default zone and mode, usage.agents says which agents are read, and where.
  const config = await statIdentity(paths.appConfig).catch(() => null);
  parts.push(config ? identityKey(config) : 'no config');
  if (p.tz === undefined || p.mode === undefined) parts.push(systemTimeZone());
  return JSON.stringify(parts);
}

type Answer =
  | { daily: DailyEntry[] }
  | { monthly: MonthlyEntry[] }
  | { sessions: SessionEntry[]; total: number; limit: number; offset: number }
  | { projects: ProjectEntry[] }
  | { models: ModelEntry[]; totalCost: number };

/** The report's answer, shaped like the API's. */
async function compute(service: UsageService, o: Options): Promise<Answer> {
  const p = o.params;
  switch (o.report) {
    case 'daily':
      return { daily: await service.daily(p) };
    case 'monthly':
      return { monthly: await service.monthly(p) };
    case 'session': {
      // ccusage's session report order: costliest first; every session, in one page.
      const page = await service.sessions(p, Number.MAX_SAFE_INTEGER, 0, { sort: 'cost', order: 'desc' });
      return { ...page, limit: page.total };
    }
    case 'projects':
      return { projects: await service.projects(p) };
    case 'models':
      return service.models(p);
  }
}

function format(o: Options, answer: Answer, width: number): string {
  if (o.json) return terminalJson(jsonOf(answer, o.byAgent));
  if ('daily' in answer) return dailyTable(answer.daily, width, o.byAgent);
  if ('monthly' in answer) return monthlyTable(answer.monthly, width, o.byAgent);
  if ('sessions' in answer) return sessionTable(answer.sessions, width, o.byAgent);
  if ('projects' in answer) return projectTable(answer.projects, width, o.byAgent);
  return modelTable(answer.models, width);
}

/** The API's shapes: `agentBreakdown` only with --by-agent (as `by=agent`). */
function jsonOf(answer: Answer, byAgent: boolean): unknown {
  if (byAgent) return answer;
  if ('daily' in answer) return { daily: shapedList(answer.daily, false) };
  if ('monthly' in answer) return { monthly: shapedList(answer.monthly, false) };
  return answer;
}

/** The report and its options; a usage error (exit 2) names what is wrong, with the API's error text. */
export function parseUsageArgs(argv: readonly string[]): Options {
  const [report, ...rest] = argv;
  if (!(REPORTS as readonly string[]).includes(report ?? '')) throw new CliError(`unknown usage report '${report}' (expected ${REPORTS.join(', ')})\n\n${USAGE_USAGE}`);
  const values: Record<string, string> = {};
  let json = false;
  let byAgent = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--json') {
      json = true;
      continue;
    }
    if (arg === '--by-agent') {
      byAgent = true;
      continue;
    }
    const m = /^--(since|until|tz|mode|agent)(?:=(.*))?$/.exec(arg);
    if (!m) throw new CliError(`unexpected argument '${arg}' for 'usage ${report}'`);
    const name = m[1]!;
    const value = m[2] ?? rest[++i];
    if (value === undefined) throw new CliError(`--${name} needs a value`);
    if (name in values) throw new CliError(`--${name} given twice`);
    values[name] = value;
  }
  const relative: Options['relative'] = {};
  return { report: report as Report, params: checkParams(values, relative), json, relative, byAgent };
}

/** `relative` receives the days given as relative forms; they stay null in the params until resolved. */
function checkParams(v: Record<string, string>, relative: Options['relative']): UsageParams {
  const date = (name: DayOption) => {
    const text = v[name];
    if (text === undefined) return null;
    const day = parseCompactDate(text);
    if (day !== null) return day;
    if (parseRelativeDay(text) === null) throw new CliError(`Invalid date format. Use ${DAY_FORMS}: --${name} ${text}`);
    relative[name] = text;
    return null;
  };
  const since = date('since');
  const until = date('until');
  checkRange(since, until);
  if (v.tz !== undefined && !isValidTimeZone(v.tz)) throw new CliError(`Invalid timezone: --tz ${v.tz}`);
  if (v.mode !== undefined && !isCostMode(v.mode)) throw new CliError(`Invalid cost mode: --mode ${v.mode} (expected auto, calculate or display)`);
  if (v.agent !== undefined && v.agent !== 'all' && !AGENT_IDS.includes(v.agent)) throw new CliError(`Unknown agent: --agent ${v.agent} (Agent must be one of: ${[...AGENT_IDS, 'all'].join(', ')})`);
  const agent = v.agent !== undefined && v.agent !== 'all' ? { agent: v.agent } : {};
  return { since, until, ...(v.tz !== undefined ? { tz: v.tz } : {}), ...(v.mode !== undefined && isCostMode(v.mode) ? { mode: v.mode } : {}), ...agent };
}

function checkRange(since: number | null, until: number | null): void {
  if (since !== null && until !== null && since > until) throw new CliError('Invalid date range: --since is after --until');
}

/** Turns relative `--since/--until` into days of the usage zone, and says on stderr what they were taken to mean. */
async function resolveRelativeDays(o: Options, paths: Paths, now: number, io: CliIo): Promise<void> {
  const given = (Object.keys(o.relative) as DayOption[]).filter((name) => o.relative[name] !== undefined);
  if (given.length === 0) return;
  const zone = o.params.tz ?? (await defaultUsageZone(paths.appConfig));
  const today = todayIn(zone, now);
  for (const name of given) {
    const text = o.relative[name]!;
    const day = relativeDayOf(parseRelativeDay(text)!, today);
    o.params = { ...o.params, [name]: day };
    io.err(`switchboard: ${understoodLine(name, day, text, zone)}\n`);
  }
  checkRange(o.params.since ?? null, o.params.until ?? null);
}

/** The terminal's width; COLUMNS when set; unlimited when the output is not a terminal (a pipe, a file). */
function terminalWidth(env: NodeJS.ProcessEnv): number {
  const columns = Number(env.COLUMNS);
  if (Number.isInteger(columns) && columns > 0) return columns;
  return process.stdout.isTTY ? process.stdout.columns : Infinity;
}
