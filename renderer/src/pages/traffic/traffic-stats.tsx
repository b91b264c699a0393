import { useMemo } from 'preact/hooks';
import type { RequestStats } from '../../api-types.js';
import { ChartPanel } from '../../components/chart-panel.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { Empty, ErrorNotice, Loading } from '../../components/notice.js';
import { formatInt } from '../../lib/format.js';
import { href } from '../../lib/router.js';
import type { Resource } from '../../lib/use-resource.js';
import type { RequestMinute } from '../../api-types.js';
import { ModelName } from './model-name.js';
import { clockTime, minuteLabel, percent } from './traffic-format.js';

/** Requests per minute, error rate and the last error, then the last hour minute by minute. */
export function TrafficStats(props: { stats: Resource<RequestStats> }) {
  const s = props.stats.data;
  return (
    <>
      <section class="cards" aria-label="Traffic summary">
        <div class="card" data-testid="traffic-rpm">
          <h2 class="card-label">Requests / min</h2>
          <p class="card-value">{s ? formatRate(s.requestsPerMinute) : '…'}</p>
          <p class="muted">average of the last 5 minutes</p>
        </div>
        <div class="card" data-testid="traffic-error-rate">
          <h2 class="card-label">Error rate</h2>
          <p class="card-value">{s ? percent(s.errorRate) : '…'}</p>
          <p class="muted">{s && s.errorRate === null ? 'no requests in the last hour' : 'of requests in the last hour'}</p>
        </div>
        <div class="card card-wide" data-testid="traffic-last-error">
          <h2 class="card-label">Last error</h2>
          {s?.lastError ? (
            <>
              <p class="card-value-small">
                <strong>{s.lastError.status}</strong> <ModelName entry={s.lastError} /> at {clockTime(s.lastError.time)}
              </p>
              <p class="muted traffic-error" title={s.lastError.error ?? undefined}>
                {s.lastError.error ?? 'no error text'}
                {s.lastError.errorLog ? (
                  <>
                    {' · '}
                    <a href={href('proxy', 'logs', s.lastError.errorLog)}>Error log</a>
                  </>
                ) : null}
              </p>
            </>
          ) : (
            <p class="card-value-small">{s ? 'None kept' : '…'}</p>
          )}
        </div>
      </section>
      {props.stats.loading && !s ? <Loading what="traffic figures" /> : null}
      <ErrorNotice error={props.stats.error} context="Traffic figures" />
      {s ? <PerMinuteChart minutes={s.perMinute} /> : null}
    </>
  );
}

export function formatRate(n: number): string {
  if (n === 0) return '0';
  return n < 10 ? n.toFixed(1) : formatInt(Math.round(n));
}

function PerMinuteChart(props: { minutes: RequestMinute[] }) {
  const { labels, series, busy, totals } = useMemo(() => {
    const m = props.minutes;
    return {
      labels: m.map((x) => minuteLabel(x.minute)),
      series: [
        { label: 'Succeeded', data: m.map((x) => Math.max(0, x.requests - x.errors)), stack: 'r' },
        { label: 'Failed', data: m.map((x) => x.errors), stack: 'r' },
      ],
      busy: m.filter((x) => x.requests > 0).reverse(),
      totals: m.reduce((t, x) => ({ requests: t.requests + x.requests, errors: t.errors + x.errors }), { requests: 0, errors: 0 }),
    };
  }, [props.minutes]);
  const columns: Column<RequestMinute>[] = [
    { key: 'minute', label: 'Minute', render: (x) => minuteLabel(x.minute) },
    { key: 'requests', label: 'Requests', numeric: true, render: (x) => formatInt(x.requests) },
    { key: 'errors', label: 'Failed', numeric: true, render: (x) => formatInt(x.errors) },
  ];
  const table = busy.length ? (
    <DataTable
      caption="Requests per minute, last hour (minutes with requests)"
      columns={columns}
      rows={busy}
      rowKey={(x) => String(x.minute)}
      footer={['Total', formatInt(totals.requests), formatInt(totals.errors)]}
      testId="traffic-minutes"
    />
  ) : (
    <Empty>No requests in the last hour.</Empty>
  );
  return (
    <ChartPanel
      id="traffic-per-minute"
      title="Last hour, per minute"
      kind="bar"
      labels={labels}
      series={series}
      table={table}
      yTitle="requests"
      summary={`${totals.requests} requests in the last hour, ${totals.errors} failed`}
    />
  );
}
