import { useMemo } from 'preact/hooks';
import type { DailyEntry } from '../../api-types.js';
import { ChartPanel, type Series } from '../../components/chart-panel.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { ExportButtons } from '../../components/export-buttons.js';
import type { ExportColumn } from '../../lib/table-export.js';
import { formatCompact, formatCost, formatInt } from '../../lib/format.js';

/** One agent's part of the window, summed from the daily breakdown (`by=agent`). */
export interface AgentRow {
  agent: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  totalTokens: number;
  cost: number;
  share: number;
}

/** The window's agents, costliest first, with their cost share (0–100). */
export function agentRows(daily: readonly DailyEntry[]): AgentRow[] {
  const byAgent = new Map<string, AgentRow>();
  for (const d of daily) {
    for (const [agent, s] of Object.entries(d.agentBreakdown ?? {})) {
      let row = byAgent.get(agent);
      if (!row) byAgent.set(agent, (row = { agent, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0, cost: 0, share: 0 }));
      row.inputTokens += s.inputTokens;
      row.outputTokens += s.outputTokens;
      row.cacheReadTokens += s.cacheReadTokens;
      row.cacheWriteTokens += s.cacheWriteTokens;
      row.totalTokens += s.totalTokens;
      row.cost += s.cost;
    }
  }
  const rows = [...byAgent.values()];
  const total = rows.reduce((a, r) => a + r.cost, 0);
  for (const r of rows) r.share = total > 0 ? (r.cost / total) * 100 : 0;
  return rows.sort((a, b) => b.cost - a.cost || (a.agent < b.agent ? -1 : 1));
}

const exportColumns: ExportColumn<AgentRow>[] = [
  { header: 'agent', value: (r) => r.agent },
  { header: 'inputTokens', value: (r) => r.inputTokens },
  { header: 'outputTokens', value: (r) => r.outputTokens },
  { header: 'cacheWriteTokens', value: (r) => r.cacheWriteTokens },
  { header: 'cacheReadTokens', value: (r) => r.cacheReadTokens },
  { header: 'totalTokens', value: (r) => r.totalTokens },
  { header: 'cost', value: (r) => r.cost },
  { header: 'share', value: (r) => r.share },
];

/**
 * Tokens per day stacked by coding agent (issue 32), the legend naming each agent with its cost
 * and share; the table view lists the agents with every token kind.
 */
export function AgentBreakdownChart(props: { daily: DailyEntry[] }) {
  const rows = useMemo(() => agentRows(props.daily), [props.daily]);
  const labels = useMemo(() => props.daily.map((d) => d.date.slice(5)), [props.daily]);
  const series = useMemo<Series[]>(
    () =>
      rows.map((r) => ({
        label: `${r.agent} — ${formatCost(r.cost)} (${r.share.toFixed(2)} %)`,
        data: props.daily.map((d) => d.agentBreakdown?.[r.agent]?.totalTokens ?? 0),
        stack: 'agents',
      })),
    [rows, props.daily],
  );
  if (rows.length === 0) return null;
  const columns: Column<AgentRow>[] = [
    { key: 'agent', label: 'Agent', render: (r) => <code>{r.agent}</code> },
    { key: 'in', label: 'Input', numeric: true, render: (r) => formatInt(r.inputTokens) },
    { key: 'out', label: 'Output', numeric: true, render: (r) => formatInt(r.outputTokens) },
    { key: 'cw', label: 'Cache write', numeric: true, render: (r) => formatInt(r.cacheWriteTokens) },
    { key: 'cr', label: 'Cache read', numeric: true, render: (r) => formatInt(r.cacheReadTokens) },
    { key: 'total', label: 'Total tokens', numeric: true, render: (r) => formatInt(r.totalTokens) },
    { key: 'cost', label: 'Cost', numeric: true, render: (r) => formatCost(r.cost) },
    { key: 'share', label: 'Cost share', numeric: true, render: (r) => `${r.share.toFixed(2)} %` },
  ];
  const tokens = rows.reduce((a, r) => a + r.totalTokens, 0);
  return (
    <ChartPanel
      id="chart-agents"
      title="Tokens by agent"
      kind="bar"
      labels={labels}
      series={series}
      yTitle="tokens"
      summary={`Tokens by agent: ${rows.length} agents, ${formatCompact(tokens)} tokens (each agent's own total, reasoning included). Switch to the table for exact figures.`}
      actions={<ExportButtons name="usage-agents" label="usage by agent" columns={exportColumns} rows={rows} />}
      table={<DataTable caption="Usage by agent" captionHidden columns={columns} rows={rows} rowKey={(r) => r.agent} testId="table-agents" />}
    />
  );
}
