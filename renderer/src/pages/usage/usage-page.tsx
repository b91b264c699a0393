import { useEffect, useState } from 'preact/hooks';
import { api, type SessionSelection, type UsageQuery } from '../../api.js';
import { ErrorNotice, Loading, Notice } from '../../components/notice.js';
import { PageHeader } from '../../components/page-header.js';
import { compactDay, systemTimeZone } from '../../lib/format.js';
import { useLiveReload } from '../../lib/live.js';
import { useAction } from '../../lib/use-action.js';
import { pending, useResource } from '../../lib/use-resource.js';
import type { AgentStatus, DailyEntry, HourlyEntry, Insights, ModelEntry, MonthlyEntry, ProjectEntry, UsageSummary } from '../../api-types.js';
import { AgentBreakdownChart } from './agent-breakdown.js';
import { AnomalyList } from './anomaly-list.js';
import { ProjectsTable } from './projects-table.js';
import { NoTranscripts, noTranscripts } from './no-transcripts.js';
import { ScanProgress } from './scan-progress.js';
import { SessionsTable } from './sessions-table.js';
import { UsageCards } from './usage-cards.js';
import { DailyChart, HourlyChart, ModelsChart, ModelsTable, MonthlyChart } from './usage-charts.js';
import { presetRange, UsageFilters, type UsageFilter } from './usage-filters.js';
import { useUsageZone } from './use-usage-zone.js';

export function UsagePage() {
  const configuredZone = useUsageZone();
  const initialZone = configuredZone ?? systemTimeZone();
  const [filter, setFilter] = useState<UsageFilter>(() => ({ ...presetRange('30d', initialZone), zone: initialZone }));
  const [touched, setTouched] = useState(false);
  // The configured zone arrives after the first render; adopt it until the user picks one.
  useEffect(() => {
    if (configuredZone && !touched && filter.zone !== configuredZone) setFilter({ ...presetRange('30d', configuredZone), zone: configuredZone });
  }, [configuredZone]);
  const zoneKnown = touched || configuredZone !== undefined;

  const [version, setVersion] = useState(0);
  const bump = () => setVersion((v) => v + 1);
  useLiveReload(['usage-refreshed'], bump, 0);

  const valid = !(filter.from && filter.to && filter.from > filter.to);
  const query: UsageQuery = {
    since: filter.from ? compactDay(filter.from) : undefined,
    until: filter.to ? compactDay(filter.to) : undefined,
    tz: filter.zone,
    ...(filter.agent ? { agent: filter.agent } : {}),
  };
  const [statusTick, setStatusTick] = useState(0);
  const cache = useResource(api.usageStatus, [version, statusTick]);
  // Until something is cached only the summary is asked for (it starts the first scan): every
  // read waits for that scan, and a browser's six connections per host would all be held by
  // waiting reads, leaving none for the status polls that show its progress.
  const ready = cache.data?.cached === true;
  const deps = [JSON.stringify(query), version, zoneKnown, ready];
  const guard = <T,>(f: () => Promise<T>) => (valid && zoneKnown ? f() : pending<T>());
  const whenReady = <T,>(f: () => Promise<T>) => (ready ? guard(f) : pending<T>());
  const summary = useResource(() => guard(() => api.usageSummary(query)), deps);
  const daily = useResource(() => whenReady(() => api.usageDaily({ ...query, by: 'agent' })), deps);
  // Agents with data, for the filter (every agent's, whatever the filter shows now).
  const agents = useResource(() => (ready ? api.usageAgents() : pending<{ agents: AgentStatus[] }>()), [version, ready]);
  const agentIds = (agents.data?.agents ?? []).filter((a) => a.records > 0).map((a) => a.id);
  const monthly = useResource(() => whenReady(() => api.usageMonthly(query)), deps);
  const models = useResource(() => whenReady(() => api.usageModels(query)), deps);
  const insights = useResource(() => whenReady(() => api.usageInsights(query)), deps);
  const hourly = useResource(
    () => (zoneKnown && ready ? api.usageHourly({ tz: filter.zone, ...(filter.agent ? { agent: filter.agent } : {}) }) : pending<{ hourly: HourlyEntry[] }>()),
    [filter.zone, filter.agent, version, zoneKnown, ready],
  );
  const projects = useResource(() => whenReady(() => api.usageProjects(query)), deps);
  const refresh = useAction(api.usageRefresh);
  const [selection, setSelection] = useState<SessionSelection>({});
  // While a scan runs, or nothing is cached yet (the first read starts the scan), the status is
  // polled for its progress; the data reads are answered when the scan ends.
  const scanning = cache.data?.scanning === true;
  const uncached = cache.data !== undefined && !cache.data.cached;
  // The first scan failed: say why (and that Refresh tries again) instead of waiting for it forever.
  const failed = uncached && !scanning && cache.data?.lastError != null;
  useEffect(() => {
    if (!scanning && (!uncached || failed)) return undefined;
    const timer = setTimeout(() => setStatusTick((t) => t + 1), 400);
    return () => clearTimeout(timer);
  }, [scanning, uncached, cache.data]);
  const firstScan = uncached && !failed && summary.data === undefined && !summary.error;
  const nothingFound = noTranscripts(cache.data);

  const costliestThisWeek = () => {
    setTouched(true);
    setFilter({ ...filter, ...presetRange('7d', filter.zone) });
    setSelection({ sort: 'cost', order: 'desc' });
    document.getElementById('sessions-title')?.scrollIntoView({ block: 'start' });
  };

  const onRefresh = async () => {
    if (await refresh.run()) bump();
  };

  return (
    <>
      <PageHeader title="Usage" subtitle="Tokens and cost from your coding agents' local logs.">
        <span class="muted" data-testid="cache-age">
          {scanning ? 'Reading transcripts…' : cache.data?.cached ? `Data cached ${cache.data.cacheAgeHuman ?? ''} ago` : cache.data ? 'Not cached yet' : ''}
        </span>
        <button type="button" class="btn" onClick={costliestThisWeek} disabled={firstScan}>
          Costliest this week
        </button>
        <button type="button" class="btn" onClick={onRefresh} disabled={refresh.busy}>
          <span aria-hidden="true">↻ </span>
          {refresh.busy ? 'Refreshing…' : 'Refresh'}
        </button>
      </PageHeader>
      <ErrorNotice error={refresh.error} context="Refresh" onDismiss={refresh.clear} />
      {refresh.result ? <Notice tone="success" onDismiss={refresh.clear}>{refresh.result.message}</Notice> : null}
      <UsageFilters
        agents={agentIds}
        value={filter}
        onChange={(f) => {
          setTouched(true);
          setFilter(f);
        }}
      />
      {failed ? (
        <Notice tone="error" title="Cannot read the usage logs">
          {cache.data!.lastError} — check that the folder exists and can be read, then press Refresh.
        </Notice>
      ) : firstScan ? (
        <ScanProgress status={cache.data!} />
      ) : nothingFound ? (
        <NoTranscripts dir={cache.data!.transcriptsDir} />
      ) : <UsageFigures {...{ summary, daily, hourly, monthly, models, insights, projects, zone: filter.zone, from: filter.from, to: filter.to }} onPickProject={(project) => setSelection({ ...selection, project })} />}
      {zoneKnown && ready && !nothingFound ? (
        <SessionsTable
          query={query}
          version={version}
          selection={selection}
          onSelection={setSelection}
          projects={(projects.data?.projects ?? []).map((p) => p.projectPath)}
          models={(models.data?.models ?? []).map((m) => m.model)}
        />
      ) : null}
    </>
  );
}

type Res<T> = { data?: T; error: unknown; loading: boolean };

/** Every figure of the page; shown only once the first scan has ended (until then there are none). */
function UsageFigures(props: {
  summary: Res<UsageSummary>;
  daily: Res<{ daily: DailyEntry[] }>;
  hourly: Res<{ hourly: HourlyEntry[] }>;
  monthly: Res<{ monthly: MonthlyEntry[] }>;
  models: Res<{ models: ModelEntry[]; totalCost: number }>;
  insights: Res<Insights>;
  projects: Res<{ projects: ProjectEntry[] }>;
  zone: string;
  from: string;
  to: string;
  onPickProject: (project: string) => void;
}) {
  const { summary, daily, hourly, monthly, models, insights, projects } = props;
  return (
    <>
      <ErrorNotice error={summary.error} context="Summary" />
      {summary.data ? <UsageCards summary={summary.data} /> : summary.loading ? <Loading what="usage" /> : null}
      <Block res={daily} render={(d) => <DailyChart daily={d.daily} />} />
      <Block res={daily} render={(d) => <AgentBreakdownChart daily={d.daily} />} />
      <div class="grid-2">
        <Block res={hourly} render={(d) => <HourlyChart hourly={d.hourly} zone={props.zone} />} />
        <Block res={monthly} render={(d) => <MonthlyChart monthly={d.monthly} from={props.from} to={props.to} />} />
      </div>
      <Block
        res={models}
        render={(d) => (
          <>
            <ModelsChart models={d.models} totalCost={d.totalCost} />
            <ModelsTable models={d.models} totalCost={d.totalCost} />
          </>
        )}
      />
      <section class="panel" aria-labelledby="insights-title">
        <header class="panel-head">
          <h3 id="insights-title">Insights</h3>
          {insights.data ? (
            <span class="muted">
              Limits: input {insights.data.thresholds.highInput?.toLocaleString()} / day, ratio {insights.data.thresholds.highIoRatio}:1,
              spike {insights.data.thresholds.costSpikeMultiplier}× average
            </span>
          ) : null}
        </header>
        <Block res={insights} render={(d) => <AnomalyList anomalies={d.anomalies} baseline={d.baseline} />} />
      </section>
      <Block res={projects} render={(d) => <ProjectsTable projects={d.projects} onPick={props.onPickProject} />} />
    </>
  );
}

function Block<T>(props: { res: { data?: T; error: unknown; loading: boolean }; render: (data: T) => preact.ComponentChildren }) {
  if (props.res.error) return <ErrorNotice error={props.res.error} />;
  if (props.res.data === undefined) return props.res.loading ? <Loading /> : null;
  return <>{props.render(props.res.data)}</>;
}
