import { useMemo } from 'preact/hooks';
import type { DailyEntry, HourlyEntry, ModelEntry, MonthlyEntry, TokenCounts } from '../../api-types.js';
import { ChartPanel, type Series } from '../../components/chart-panel.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { Empty } from '../../components/notice.js';
import { formatCompact, formatCost, formatInt } from '../../lib/format.js';

const totalOf = (e: TokenCounts) => e.inputTokens + e.outputTokens + (e.cacheReadTokens ?? 0) + (e.cacheWriteTokens ?? 0);

/** Token and cost columns shared by the daily, hourly and monthly tables. */
function tokenColumns<R extends TokenCounts>(): Column<R>[] {
  return [
    { key: 'in', label: 'Input', numeric: true, render: (r) => formatInt(r.inputTokens) },
    { key: 'out', label: 'Output', numeric: true, render: (r) => formatInt(r.outputTokens) },
    { key: 'cw', label: 'Cache write', numeric: true, render: (r) => formatInt(r.cacheWriteTokens ?? 0) },
    { key: 'cr', label: 'Cache read', numeric: true, render: (r) => formatInt(r.cacheReadTokens ?? 0) },
    { key: 'total', label: 'Total tokens', numeric: true, render: (r) => formatInt(totalOf(r)) },
    { key: 'cost', label: 'Cost', numeric: true, render: (r) => formatCost(r.cost) },
  ];
}

function totalsRow(rows: TokenCounts[]): string[] {
  const sum = (f: (e: TokenCounts) => number) => rows.reduce((acc, e) => acc + f(e), 0);
  return [
    formatInt(sum((e) => e.inputTokens)),
    formatInt(sum((e) => e.outputTokens)),
    formatInt(sum((e) => e.cacheWriteTokens ?? 0)),
    formatInt(sum((e) => e.cacheReadTokens ?? 0)),
    formatInt(sum(totalOf)),
    formatCost(sum((e) => e.cost)),
  ];
}

function tokenSeries(rows: TokenCounts[], withCost: boolean): Series[] {
  const series: Series[] = [
    { label: 'Input', data: rows.map((r) => r.inputTokens), stack: 't' },
    { label: 'Output', data: rows.map((r) => r.outputTokens), stack: 't' },
    { label: 'Cache write', data: rows.map((r) => r.cacheWriteTokens ?? 0), stack: 't' },
    { label: 'Cache read', data: rows.map((r) => r.cacheReadTokens ?? 0), stack: 't' },
  ];
  if (withCost) series.push({ label: 'Cost (USD)', data: rows.map((r) => Number(r.cost.toFixed(4))), secondAxis: true, line: true });
  return series;
}

function summaryText(what: string, rows: TokenCounts[]): string {
  const tokens = rows.reduce((a, r) => a + totalOf(r), 0);
  const cost = rows.reduce((a, r) => a + r.cost, 0);
  return `${what}: ${formatCompact(tokens)} tokens, ${formatCost(cost)} over ${rows.length} ${rows.length === 1 ? 'entry' : 'entries'}. Switch to the table for exact figures.`;
}

/** The API lists days with data only; the chart shows idle days as zero so gaps are not hidden. */
function withIdleDays(daily: DailyEntry[]): Array<TokenCounts & { date: string }> {
  if (daily.length < 2) return daily;
  const byDate = new Map(daily.map((d) => [d.date, d]));
  const out: Array<TokenCounts & { date: string }> = [];
  const day = new Date(`${daily[0]!.date}T12:00:00Z`);
  const last = daily[daily.length - 1]!.date;
  for (let i = 0; i < 400; i++) {
    const date = day.toISOString().slice(0, 10);
    out.push(byDate.get(date) ?? { date, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cost: 0 });
    if (date >= last) return out;
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return daily;
}

interface TokenChartProps<R extends TokenCounts> {
  id: string;
  title: string;
  /** Caption of the table view, and the start of the chart's text summary. */
  caption: string;
  summary: string;
  rows: R[];
  /** What the chart draws, when it differs from the table's rows (idle days filled in). */
  chartRows?: TokenCounts[];
  labels: string[];
  /** The first column: the row's date, hour or month. */
  keyColumn: { key: string; label: string; of: (r: R) => string };
  testId: string;
  empty?: string;
}

/** A stacked token chart with a cost line, and its table view with totals. */
function TokenChart<R extends TokenCounts>(props: TokenChartProps<R>) {
  const chartRows = props.chartRows ?? props.rows;
  const series = useMemo(() => tokenSeries(chartRows, true), [chartRows]);
  if (props.empty && props.rows.length === 0) return <Empty>{props.empty}</Empty>;
  const { keyColumn } = props;
  const columns: Column<R>[] = [{ key: keyColumn.key, label: keyColumn.label, render: keyColumn.of }, ...tokenColumns<R>()];
  return (
    <ChartPanel
      id={props.id}
      title={props.title}
      kind="bar"
      labels={props.labels}
      series={series}
      yTitle="tokens"
      y2Title="USD"
      summary={summaryText(props.summary, props.rows)}
      table={<DataTable caption={props.caption} captionHidden columns={columns} rows={props.rows} rowKey={keyColumn.of} footer={['Total', ...totalsRow(props.rows)]} testId={props.testId} />}
    />
  );
}

export function DailyChart(props: { daily: DailyEntry[] }) {
  const filled = useMemo(() => withIdleDays(props.daily), [props.daily]);
  const labels = useMemo(() => filled.map((d) => d.date.slice(5)), [filled]);
  return (
    <TokenChart
      id="chart-daily"
      title="Daily tokens and cost"
      caption="Daily usage"
      summary="Daily usage"
      rows={props.daily}
      chartRows={filled}
      labels={labels}
      keyColumn={{ key: 'date', label: 'Date', of: (r) => r.date }}
      testId="table-daily"
      empty="No daily usage in this period."
    />
  );
}

export function HourlyChart(props: { hourly: HourlyEntry[]; zone: string }) {
  const labels = useMemo(() => props.hourly.map((h) => h.hour.slice(11, 13) + 'h'), [props.hourly]);
  return (
    <TokenChart
      id="chart-hourly"
      title={`Last 24 hours (${props.zone})`}
      caption="Hourly usage"
      summary="Hourly usage, last 24 hours"
      rows={props.hourly}
      labels={labels}
      keyColumn={{ key: 'hour', label: 'Hour', of: (r) => r.hour }}
      testId="table-hourly"
    />
  );
}

export function MonthlyChart(props: { monthly: MonthlyEntry[] }) {
  const labels = useMemo(() => props.monthly.map((m) => m.month), [props.monthly]);
  return (
    <TokenChart
      id="chart-monthly"
      title="Monthly"
      caption="Monthly usage"
      summary="Monthly usage"
      rows={props.monthly}
      labels={labels}
      keyColumn={{ key: 'month', label: 'Month', of: (r) => r.month }}
      testId="table-monthly"
      empty="No monthly usage in this period."
    />
  );
}

export function ModelsChart(props: { models: ModelEntry[]; totalCost: number }) {
  const labels = useMemo(() => props.models.map((m) => m.model), [props.models]);
  const series = useMemo<Series[]>(() => [{ label: 'Cost share (%)', data: props.models.map((m) => m.percentage) }], [props.models]);
  if (props.models.length === 0) return <Empty>No models used in this period.</Empty>;
  const columns: Column<ModelEntry>[] = [
    { key: 'model', label: 'Model', render: (r) => <code>{r.model}</code> },
    { key: 'cost', label: 'Cost', numeric: true, render: (r) => formatCost(r.cost) },
    { key: 'share', label: 'Cost share', numeric: true, render: (r) => `${r.percentage.toFixed(2)} %` },
  ];
  return (
    <ChartPanel
      id="chart-models"
      title="Cost share by model"
      kind="doughnut"
      labels={labels}
      series={series}
      summary={`Cost share of ${props.models.length} models; total ${formatCost(props.totalCost)}.`}
      table={<DataTable caption="Cost share by model" captionHidden columns={columns} rows={props.models} rowKey={(r) => r.model} footer={['Total', formatCost(props.totalCost), '100 %']} testId="table-model-share" />}
    />
  );
}

/** The full per-model table, sorted by cost as the API sends it. */
export function ModelsTable(props: { models: ModelEntry[]; totalCost: number }) {
  if (props.models.length === 0) return null;
  const columns: Column<ModelEntry>[] = [
    { key: 'model', label: 'Model', render: (r) => <code>{r.model}</code> },
    ...tokenColumns<ModelEntry>(),
    { key: 'share', label: 'Share', numeric: true, render: (r) => `${r.percentage.toFixed(2)} %` },
    { key: 'io', label: 'In/out ratio', numeric: true, render: (r) => (r.ioRatio == null ? '—' : r.ioRatio.toFixed(2)) },
  ];
  const footer = ['Total', ...totalsRow(props.models).slice(0, 5), formatCost(props.totalCost), '100 %', ''];
  return (
    <section class="panel" aria-labelledby="models-table-title">
      <header class="panel-head">
        <h3 id="models-table-title">Models</h3>
      </header>
      <DataTable caption="Models" captionHidden columns={columns} rows={props.models} rowKey={(r) => r.model} footer={footer} testId="table-models" />
    </section>
  );
}
