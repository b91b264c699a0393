import { useEffect, useState } from 'preact/hooks';
import { api, type UsageQuery } from '../../api.js';
import { ErrorNotice, Loading, Notice } from '../../components/notice.js';
import { PageHeader } from '../../components/page-header.js';
import { compactDay, systemTimeZone } from '../../lib/format.js';
import { useLiveReload } from '../../lib/live.js';
import { useAction } from '../../lib/use-action.js';
import { pending, useResource } from '../../lib/use-resource.js';
import type { HourlyEntry } from '../../api-types.js';
import { AnomalyList } from './anomaly-list.js';
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
  };
  const deps = [JSON.stringify(query), version, zoneKnown];
  const guard = <T,>(f: () => Promise<T>) => (valid && zoneKnown ? f() : pending<T>());
  const summary = useResource(() => guard(() => api.usageSummary(query)), deps);
  const daily = useResource(() => guard(() => api.usageDaily(query)), deps);
  const monthly = useResource(() => guard(() => api.usageMonthly(query)), deps);
  const models = useResource(() => guard(() => api.usageModels(query)), deps);
  const insights = useResource(() => guard(() => api.usageInsights(query)), deps);
  const hourly = useResource(() => (zoneKnown ? api.usageHourly({ tz: filter.zone }) : pending<{ hourly: HourlyEntry[] }>()), [filter.zone, version, zoneKnown]);
  const cache = useResource(api.usageStatus, [version]);
  const refresh = useAction(api.usageRefresh);

  const onRefresh = async () => {
    if (await refresh.run()) bump();
  };

  return (
    <>
      <PageHeader title="Usage" subtitle="Tokens and cost from the agent's local transcripts.">
        <span class="muted" data-testid="cache-age">
          {cache.data?.cached ? `Data cached ${cache.data.cacheAgeHuman ?? ''} ago` : cache.data ? 'Not cached yet' : ''}
        </span>
        <button type="button" class="btn" onClick={onRefresh} disabled={refresh.busy}>
          <span aria-hidden="true">↻ </span>
          {refresh.busy ? 'Refreshing…' : 'Refresh'}
        </button>
      </PageHeader>
      <ErrorNotice error={refresh.error} context="Refresh" onDismiss={refresh.clear} />
      {refresh.result ? <Notice tone="success" onDismiss={refresh.clear}>{refresh.result.message}</Notice> : null}
      <UsageFilters
        value={filter}
        onChange={(f) => {
          setTouched(true);
          setFilter(f);
        }}
      />
      <ErrorNotice error={summary.error} context="Summary" />
      {summary.data ? <UsageCards summary={summary.data} /> : summary.loading ? <Loading what="usage" /> : null}
      <Block res={daily} render={(d) => <DailyChart daily={d.daily} />} />
      <div class="grid-2">
        <Block res={hourly} render={(d) => <HourlyChart hourly={d.hourly} zone={filter.zone} />} />
        <Block res={monthly} render={(d) => <MonthlyChart monthly={d.monthly} />} />
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
      {zoneKnown ? <SessionsTable query={query} version={version} /> : null}
    </>
  );
}

function Block<T>(props: { res: { data?: T; error: unknown; loading: boolean }; render: (data: T) => preact.ComponentChildren }) {
  if (props.res.error) return <ErrorNotice error={props.res.error} />;
  if (props.res.data === undefined) return props.res.loading ? <Loading /> : null;
  return <>{props.render(props.res.data)}</>;
}
