import { baselineOf, detectAnomalies, THRESHOLDS, type Anomaly, type Baseline } from './anomalies.js';
import { DailyByFile } from './daily-by-file.js';
import { agentOfKept, keptCount, type KeptList } from './packed-read.js';
import { monthlyEntries, type DailyEntry, type MonthlyEntry } from './daily.js';
import { hourlyEntries, type HourlyEntry } from './hourly.js';
import { modelEntries, type ModelEntry } from './models.js';
import type { Pricing } from './pricing.js';
import { costIn, type CostMode } from './cost-mode.js';
import { projectEntries, type ProjectEntry } from './projects.js';
import { projectsBySession, sessionEntries, type SessionEntry } from './sessions.js';
import { sliceByWindow, type UsageSlice } from './slice.js';
import { summarize, type UsageSummary } from './summary.js';
import { UsageRangeError } from './usage-errors.js';
import type { UsageRecord } from './types.js';
import type { UsageStore } from './usage-store.js';
import { ZoneCalendar } from './zone-calendar.js';

/** A resolved query: a valid zone and an inclusive local-day window. */
export interface ViewQuery {
  zone: string;
  mode: CostMode;
  since: number | null;
  until: number | null;
  /** Only this coding agent's requests; null (or absent) = every agent. */
  agent?: string | null;
}

export const MAX_HOURLY_DAYS = 31;

interface View {
  /** Built only for the answers that need every request (models, sessions). */
  slice?: UsageSlice;
  daily?: DailyEntry[];
  summary?: UsageSummary;
  monthly?: MonthlyEntry[];
  models?: { models: ModelEntry[]; totalCost: number };
  sessions?: SessionEntry[];
  /** Per session, every project (cwd) it has requests in: what the project filter matches. */
  sessionProjects?: Map<string, Set<string>>;
  projects?: ProjectEntry[];
  insights?: Insights;
}

export interface Insights {
  anomalies: Anomaly[];
  thresholds: typeof THRESHOLDS;
  baseline: Baseline;
}

const MAX_VIEWS = 64;

/**
 * Answers built from the store's kept requests, memoised per (zone, window) until the store
 * changes: a cached endpoint costs a map lookup. Daily rows (and summary, monthly, insights from
 * them) are summed per file and kept per file across changes; models and sessions share one slice.
 */
export class UsageViews {
  private views = new Map<string, View>();
  private hours = new Map<string, HourlyEntry[]>();
  private calendars = new Map<string, ZoneCalendar>();
  private version = -1;
  private readonly dailyByFile = new DailyByFile();

  constructor(
    private readonly store: UsageStore,
    private readonly pricing: Pricing,
  ) {}

  summary(q: ViewQuery): UsageSummary {
    const v = this.view(q);
    return (v.summary ??= summarize(this.daily(q), this.pricing));
  }

  daily(q: ViewQuery): DailyEntry[] {
    const v = this.view(q);
    return (v.daily ??= this.dailyByFile.daily(ofAgentGroups(this.store.keptLists(), q.agent ?? null), this.calendar(q.zone), q, q.mode));
  }

  monthly(q: ViewQuery): MonthlyEntry[] {
    const v = this.view(q);
    return (v.monthly ??= monthlyEntries(this.daily(q)));
  }

  models(q: ViewQuery): { models: ModelEntry[]; totalCost: number } {
    const v = this.view(q);
    return (v.models ??= modelEntries(this.slice(v, q), costIn(q.mode)));
  }

  sessions(q: ViewQuery): SessionEntry[] {
    const v = this.view(q);
    return (v.sessions ??= sessionEntries(this.slice(v, q), costIn(q.mode)));
  }

  sessionProjects(q: ViewQuery): ReadonlyMap<string, ReadonlySet<string>> {
    const v = this.view(q);
    return (v.sessionProjects ??= projectsBySession(this.slice(v, q)));
  }

  projects(q: ViewQuery): ProjectEntry[] {
    const v = this.view(q);
    return (v.projects ??= projectEntries(this.slice(v, q), costIn(q.mode)));
  }

  insights(q: ViewQuery): Insights {
    const v = this.view(q);
    return (v.insights ??= { anomalies: detectAnomalies(this.daily(q)), thresholds: THRESHOLDS, baseline: baselineOf(this.daily(q)) });
  }

  /**
   * Without a window: the 24 whole local hours ending with the current one. With one: every hour
   * of its days (an open end is today, an open start is the end day), at most 31 days.
   */
  hourly(q: ViewQuery, now: number): HourlyEntry[] {
    const cal = this.calendar(q.zone);
    let first: number;
    let last: number;
    if (q.since === null && q.until === null) {
      last = cal.hourOf(now);
      first = last - 23;
    } else {
      const until = q.until ?? cal.dayOf(now);
      const since = q.since ?? until;
      if (since > until || until - since + 1 > MAX_HOURLY_DAYS) throw new UsageRangeError('hourly window');
      first = since * 24;
      last = until * 24 + 23;
    }
    this.checkVersion();
    const key = `${q.zone}|${first}|${last}|${q.mode}|${q.agent ?? ''}`;
    let entries = this.hours.get(key);
    if (!entries) {
      if (this.hours.size >= MAX_VIEWS) this.hours.clear();
      this.hours.set(key, (entries = hourlyEntries(ofAgent(this.store.kept(), q.agent ?? null), cal, first, last, costIn(q.mode))));
    }
    return entries;
  }

  private checkVersion(): void {
    if (this.version === this.store.version) return;
    this.views.clear();
    this.hours.clear();
    this.version = this.store.version;
  }

  private view(q: ViewQuery): View {
    this.checkVersion();
    const key = `${q.zone}|${q.since}|${q.until}|${q.mode}|${q.agent ?? ''}`;
    let v = this.views.get(key);
    if (!v) {
      if (this.views.size >= MAX_VIEWS) this.views.clear();
      v = {};
      this.views.set(key, v);
    }
    return v;
  }

  private slice(v: View, q: ViewQuery): UsageSlice {
    return (v.slice ??= sliceByWindow(ofAgent(this.store.kept(), q.agent ?? null), this.calendar(q.zone), q));
  }

  private calendar(zone: string): ZoneCalendar {
    let cal = this.calendars.get(zone);
    if (!cal) {
      if (this.calendars.size >= MAX_VIEWS) this.calendars.clear();
      this.calendars.set(zone, (cal = new ZoneCalendar(zone)));
    }
    return cal;
  }
}

/** One agent's requests (null: all of them, the same array). */
function ofAgent(records: UsageRecord[], agent: string | null): UsageRecord[] {
  return agent === null ? records : records.filter((r) => r.agent === agent);
}

/** One agent's files: every file holds one agent's requests, so its first request names it. */
function ofAgentGroups(groups: KeptList[], agent: string | null): KeptList[] {
  return agent === null ? groups : groups.filter((g) => keptCount(g) > 0 && agentOfKept(g) === agent);
}
