import { useMemo } from 'preact/hooks';
import type { DailyEntry, HourlyEntry, ModelEntry, MonthlyEntry, TokenCounts } from '../../api-types.js';
import { ChartPanel, type Series } from '../../components/chart-panel.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { ExportButtons } from '../../components/export-buttons.js';
import { Empty } from '../../components/notice.js';
import type { ExportColumn } from '../../lib/table-export.js';
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

/** Raw columns of a token table, for its CSV export. */
function exportColumns<R extends TokenCounts>(key: { header: string; of: (r: R) => string }): ExportColumn<R>[] {
  return [
    { header: key.header, value: key.of },
    { header: 'inputTokens', value: (r) => r.inputTokens },
    { header: 'outputTokens', value: (r) => r.outputTokens },
    { header: 'cacheWriteTokens', value: (r) => r.cacheWriteTokens ?? 0 },
    { header: 'cacheReadTokens', value: (r) => r.cacheReadTokens ?? 0 },
    { header: 'totalTokens', value: totalOf },
    { header: 'cost', value: (r) => r.cost },
  ];
}

/** The hovered bar's totals: the tooltip lists each kind, this adds what they come to. */
function totalsFooter(rows: TokenCounts[]): (index: number) => string[] {
  return (i) => {
    const r = rows[i];
    return r ? [`Total: ${formatInt(totalOf(r))} tokens`, `Cost: ${formatCost(r.cost)}`] : [];
  };
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
  /** `of` is what the table shows; `raw`, when given, what the export writes (a month without "(partial)"). */
  keyColumn: { key: string; label: string; of: (r: R) => string; raw?: (r: R) => string };
  testId: string;
  empty?: string;
  /** File name of the exports, without extension. */
  exportName: string;
  /** Shown under the chart (e.g. which months are partial). */
  note?: string;
}

/** A stacked token chart with a cost line, and its table view with totals. */
function TokenChart<R extends TokenCounts>(props: TokenChartProps<R>) {
  const chartRows = props.chartRows ?? props.rows;
  const series = useMemo(() => tokenSeries(chartRows, true), [chartRows]);
  const footer = useMemo(() => totalsFooter(chartRows), [chartRows]);
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
      footer={footer}
      summary={summaryText(props.summary, props.rows) + (props.note ? ` ${props.note}` : '')}
      actions={<ExportButtons name={props.exportName} label={props.caption.toLowerCase()} columns={exportColumns<R>({ header: keyColumn.key, of: keyColumn.raw ?? keyColumn.of })} rows={props.rows} />}
      table={
        <>
          <DataTable caption={props.caption} captionHidden columns={columns} rows={props.rows} rowKey={keyColumn.of} footer={['Total', ...totalsRow(props.rows)]} testId={props.testId} />
          {props.note ? <p class="muted partial-note">{props.note}</p> : null}
        </>
      }
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
      exportName="usage-daily"
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
      exportName="usage-hourly"
    />
  );
}

/**
 * A month the period covers only in part (the window starts after its first day or ends before
 * its last): "2025-11 (partial)", so a 6-day stub is not read as a month. `from`/`to` are the
 * window's ISO days ('' = open).
 */
export function partialMonths(months: readonly string[], from: string, to: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const month of months) {
    const first = `${month}-01`;
    const last = lastDayOf(month);
    const start = from > first ? from : first;
    const end = to !== '' && to < last ? to : last;
    if (start !== first || end !== last) out.set(month, `${start.slice(8)}–${end.slice(8)}`);
  }
  return out;
}

function lastDayOf(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

export function MonthlyChart(props: { monthly: MonthlyEntry[]; from: string; to: string }) {
  const partial = useMemo(() => partialMonths(props.monthly.map((m) => m.month), props.from, props.to), [props.monthly, props.from, props.to]);
  const labels = useMemo(() => props.monthly.map((m) => (partial.has(m.month) ? `${m.month} (partial)` : m.month)), [props.monthly, partial]);
  const note = partial.size
    ? `Partial: ${[...partial].map(([month, days]) => `${month} covers days ${days} only`).join('; ')}.`
    : undefined;
  return (
    <TokenChart
      id="chart-monthly"
      title="Monthly"
      caption="Monthly usage"
      summary="Monthly usage"
      rows={props.monthly}
      labels={labels}
      keyColumn={{ key: 'month', label: 'Month', of: (r) => (partial.has(r.month) ? `${r.month} (partial)` : r.month), raw: (r) => r.month }}
      testId="table-monthly"
      exportName="usage-monthly"
      empty="No monthly usage in this period."
      {...(note ? { note } : {})}
    />
  );
}

const modelExport: ExportColumn<ModelEntry>[] = [
  { header: 'model', value: (m) => m.model },
  { header: 'inputTokens', value: (m) => m.inputTokens },
  { header: 'outputTokens', value: (m) => m.outputTokens },
  { header: 'cacheWriteTokens', value: (m) => m.cacheWriteTokens },
  { header: 'cacheReadTokens', value: (m) => m.cacheReadTokens },
  { header: 'cost', value: (m) => m.cost },
  { header: 'percentage', value: (m) => m.percentage },
  { header: 'ioRatio', value: (m) => m.ioRatio },
];

export function ModelsChart(props: { models: ModelEntry[]; totalCost: number }) {
  // The doughnut's legend names each model with its cost and share.
  const labels = useMemo(() => props.models.map((m) => `${m.model} — ${formatCost(m.cost)} (${m.percentage.toFixed(2)} %)`), [props.models]);
  const series = useMemo<Series[]>(() => [{ label: 'Cost share (%)', data: props.models.map((m) => m.percentage) }], [props.models]);
  if (props.models.length === 0) return <Empty>No models used in this period.</Empty>;
  const columns: Column<ModelEntry>[] = [
    { key: 'model', label: 'Model', render: (r) => <code class="model">{r.model}</code> },
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
      actions={<ExportButtons name="usage-model-share" label="cost share by model" columns={modelExport} rows={props.models} />}
      table={<DataTable caption="Cost share by model" captionHidden columns={columns} rows={props.models} rowKey={(r) => r.model} footer={['Total', formatCost(props.totalCost), '100 %']} testId="table-model-share" />}
    />
  );
}

/** The full per-model table, sorted by cost as the API sends it. */
export function ModelsTable(props: { models: ModelEntry[]; totalCost: number }) {
  if (props.models.length === 0) return null;
  const columns: Column<ModelEntry>[] = [
    { key: 'model', label: 'Model', render: (r) => <code class="model">{r.model}</code> },
    ...tokenColumns<ModelEntry>(),
    { key: 'share', label: 'Share', numeric: true, render: (r) => `${r.percentage.toFixed(2)} %` },
    { key: 'io', label: 'In/out ratio', numeric: true, render: (r) => (r.ioRatio == null ? '—' : r.ioRatio.toFixed(2)) },
  ];
  const footer = ['Total', ...totalsRow(props.models).slice(0, 5), formatCost(props.totalCost), '100 %', ''];
  return (
    <section class="panel" aria-labelledby="models-table-title">
      <header class="panel-head">
        <h3 id="models-table-title">Models</h3>
        <ExportButtons name="usage-models" label="models" columns={modelExport} rows={props.models} />
      </header>
      <DataTable caption="Models" captionHidden columns={columns} rows={props.models} rowKey={(r) => r.model} footer={footer} testId="table-models" />
    </section>
  );
}
