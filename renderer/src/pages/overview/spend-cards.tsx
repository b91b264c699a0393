import { AgentShareCard } from './agent-share-card.js';
import { useMemo } from 'preact/hooks';
import { api } from '../../api.js';
import type { UsageSummary } from '../../api-types.js';
import { ErrorNotice, Loading } from '../../components/notice.js';
import { compactDay, formatCompact, formatCost, isoDay, systemTimeZone } from '../../lib/format.js';
import { useLiveReload } from '../../lib/live.js';
import { href } from '../../lib/router.js';
import { pending, useResource, type Resource } from '../../lib/use-resource.js';
import { presetRange } from '../usage/usage-filters.js';
import { NoTranscripts } from '../usage/no-transcripts.js';
import { useUsageZone } from '../usage/use-usage-zone.js';
import { ScanNote } from './scan-note.js';
import { Sparkline } from './sparkline.js';
import { fillDays } from './spend-days.js';
import type { ScanState } from './use-scan-status.js';

/** Today, the last 7 days and this month, a 30-day line and the week's top model. */
export function SpendCards(props: { scan: ScanState }) {
  const { scanning, progress, settled } = props.scan;
  const known = useUsageZone();
  const zone = known ?? systemTimeZone();
  const today = isoDay(new Date(), zone);
  const week = presetRange('7d', zone);
  const month = presetRange('month', zone);
  const thirty = presetRange('30d', zone);
  const when = <T,>(fetch: () => Promise<T>) => (known ? fetch() : pending<T>());
  // Today's read starts a first scan; the others wait until it is done (see ScanState.settled).
  const later = <T,>(fetch: () => Promise<T>) => (known && settled ? fetch() : pending<T>());
  const range = (r: { from: string; to: string }) => ({ tz: zone, since: compactDay(r.from), until: compactDay(r.to) });
  const day = useResource(() => when(() => api.usageSummary(range({ from: today, to: today }))), [known, today]);
  const last7 = useResource(() => later(() => api.usageSummary(range(week))), [known, today, settled]);
  const mon = useResource(() => later(() => api.usageSummary(range(month))), [known, today, settled]);
  const daily = useResource(() => later(() => api.usageDaily({ ...range(thirty), by: 'agent' })), [known, today, settled]);
  const models = useResource(() => later(() => api.usageModels(range(week))), [known, today, settled]);
  useLiveReload(['usage-refreshed'], () => [day, last7, mon, daily, models].forEach((r) => void r.reload()), 60_000);
  const points = useMemo(() => (daily.data ? fillDays(daily.data.daily, thirty.from, thirty.to) : null), [daily.data, thirty.from, thirty.to]);
  const top = models.data?.models.reduce<(typeof models.data.models)[number] | null>((best, m) => (!best || m.cost > best.cost ? m : best), null);
  // While the first scan runs each card says so in a word; the progress shows once, above them.
  const wait = scanning ? (
    <p class="muted card-wait" data-testid="scan-wait">
      Counting…
    </p>
  ) : (
    <Loading />
  );

  if (props.scan.noTranscriptsIn !== null) {
    return (
      <section aria-label="Spend" class="spend-empty" data-testid="no-transcripts">
        <NoTranscripts dir={props.scan.noTranscriptsIn} />
      </section>
    );
  }
  return (
    <section aria-label="Spend" class="cards">
      {scanning ? (
        <div class="card-foot scan-banner">
          <ScanNote progress={progress} />
        </div>
      ) : null}
      <CostCard label="Today" res={day} wait={wait} testId="cost-today" />
      <CostCard label="Last 7 days" res={last7} wait={wait} testId="cost-week" />
      <CostCard label="This month" res={mon} wait={wait} testId="cost-month" />
      <div class="card card-wide" data-testid="cost-30d">
        <h2 class="card-label">Cost per day, last 30 days</h2>
        {points ? <Sparkline points={points} label={`Cost per day, ${thirty.from} to ${thirty.to}`} /> : daily.loading ? wait : null}
        <ErrorNotice error={daily.error} />
      </div>
      {daily.data ? <AgentShareCard daily={daily.data.daily} /> : null}
      <div class="card" data-testid="top-model">
        <h2 class="card-label">Top model, 7 days</h2>
        {top ? (
          <>
            <p class="card-value-small">
              <code>{top.model}</code>
            </p>
            <p class="muted">
              {formatCost(top.cost)} · {Math.round(top.percentage)}% of the week's cost
            </p>
          </>
        ) : models.data ? (
          <p class="muted">No usage in the last 7 days.</p>
        ) : models.loading ? (
          wait
        ) : null}
        <ErrorNotice error={models.error} />
      </div>
      <p class="muted card-foot">
        Grouped by day in {zone}. <a href={href('usage')}>All usage</a>
      </p>
    </section>
  );
}

function CostCard(props: { label: string; res: Resource<UsageSummary>; wait: preact.JSX.Element; testId: string }) {
  const d = props.res.data;
  return (
    <div class="card" data-testid={props.testId}>
      <h2 class="card-label">{props.label}</h2>
      {d ? <p class="card-value">{formatCost(d.totalCost)}</p> : props.res.loading ? props.wait : null}
      {d ? <p class="muted">{formatCompact(d.totalTokens)} tokens</p> : null}
      <ErrorNotice error={props.res.error} />
    </div>
  );
}
