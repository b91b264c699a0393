import { api } from '../api.js';
import type { Insights, UsageSummary } from '../api-types.js';
import { BridgeControl } from '../components/bridge-control.js';
import { ErrorNotice, Loading, Notice } from '../components/notice.js';
import { PageHeader } from '../components/page-header.js';
import { ProxyControl } from '../components/proxy-control.js';
import { AnomalyList } from './usage/anomaly-list.js';
import { compactDay, formatCompact, formatCost, isoDay, systemTimeZone } from '../lib/format.js';
import { useLiveReload } from '../lib/live.js';
import { href } from '../lib/router.js';
import { pending, useResource } from '../lib/use-resource.js';
import { useUsageZone } from './usage/use-usage-zone.js';

/** The at-a-glance page: what runs, what it cost today and this month, what looks wrong. */
export function OverviewPage() {
  const bridge = useResource(api.bridgeStatus, []);
  return (
    <>
      <PageHeader title="Overview" subtitle="What is running, what it costs, and what needs attention." />
      <UpdateNotice />
      <div class="grid-2">
        <ProxyControl compact />
        <BridgeControl status={bridge} showLink />
      </div>
      <CostCards />
      <section class="panel" aria-labelledby="ov-anomalies">
        <header class="panel-head">
          <h2 id="ov-anomalies">Anomalies</h2>
          <a href={href('usage')}>All usage</a>
        </header>
        <RecentAnomalies />
      </section>
    </>
  );
}

function CostCards() {
  const known = useUsageZone();
  const zone = known ?? systemTimeZone();
  const today = isoDay(new Date(), zone);
  const monthStart = today.slice(0, 8) + '01';
  const q = { tz: zone };
  const day = useResource(() => (known ? api.usageSummary({ ...q, since: compactDay(today), until: compactDay(today) }) : pending<UsageSummary>()), [known, today]);
  const month = useResource(() => (known ? api.usageSummary({ ...q, since: compactDay(monthStart), until: compactDay(today) }) : pending<UsageSummary>()), [known, today]);
  useLiveReload(['usage-refreshed'], () => (void day.reload(), void month.reload()), 60_000);
  return (
    <section aria-label="Costs" class="cards">
      <div class="card" data-testid="cost-today">
        <h2 class="card-label">Today</h2>
        {day.data ? <p class="card-value">{formatCost(day.data.totalCost)}</p> : day.loading ? <Loading /> : null}
        {day.data ? <p class="muted">{formatCompact(day.data.totalTokens)} tokens</p> : null}
        <ErrorNotice error={day.error} />
      </div>
      <div class="card" data-testid="cost-month">
        <h2 class="card-label">This month</h2>
        {month.data ? <p class="card-value">{formatCost(month.data.totalCost)}</p> : month.loading ? <Loading /> : null}
        {month.data ? <p class="muted">{formatCompact(month.data.totalTokens)} tokens</p> : null}
        <ErrorNotice error={month.error} />
      </div>
      <p class="muted card-foot">Grouped by day in {zone}.</p>
    </section>
  );
}

function RecentAnomalies() {
  const zone = useUsageZone();
  const insights = useResource(() => (zone ? api.usageInsights({ tz: zone }) : pending<Insights>()), [zone]);
  useLiveReload(['anomaly', 'usage-refreshed'], insights.reload, 0);
  if (insights.error) return <ErrorNotice error={insights.error} />;
  if (!insights.data) return <Loading what="anomalies" />;
  return <AnomalyList anomalies={insights.data.anomalies.slice(0, 5)} />;
}

function UpdateNotice() {
  const update = useResource(api.updateCheck, []);
  // A failed background check is not worth an alarm (users complained of exactly that).
  if (!update.data?.hasUpdate) return null;
  return (
    <Notice tone="info" title="Proxy update available">
      Version {update.data.latestVersion} is out; you run {update.data.currentVersion}.
    </Notice>
  );
}
