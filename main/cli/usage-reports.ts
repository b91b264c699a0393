import type { AgentParts, DailyEntry, MonthlyEntry } from '../services/usage/daily.js';
import type { ModelEntry } from '../services/usage/models.js';
import type { ProjectEntry } from '../services/usage/projects.js';
import type { SessionEntry } from '../services/usage/sessions.js';
import { formatTable, type TextColumn } from './usage-table.js';

// The terminal reports: which columns each one shows and how its cells read. Pure.

const int = new Intl.NumberFormat('en-US');
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

interface Counted {
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
  cost: number;
}

const tokenColumns: TextColumn[] = [
  { header: 'Input', align: 'right', drop: 2 },
  { header: 'Output', align: 'right', drop: 3 },
  { header: 'Cache write', align: 'right', drop: 5 },
  { header: 'Cache read', align: 'right', drop: 4 },
  { header: 'Total tokens', align: 'right' },
  { header: 'Cost', align: 'right' },
];

function tokenCells(r: Counted): string[] {
  const total = r.inputTokens + r.outputTokens + r.cacheWriteTokens + r.cacheReadTokens;
  return [int.format(r.inputTokens), int.format(r.outputTokens), int.format(r.cacheWriteTokens), int.format(r.cacheReadTokens), int.format(total), money(r.cost)];
}

/** Never `$∞`: costs are bounded where they are read (parse-line.ts), and a sum that still overflowed says so. */
function money(cost: number): string {
  return Number.isFinite(cost) ? usd.format(cost) : 'out of range';
}

function sum(rows: readonly Counted[]): Counted {
  const t: Counted = { inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, cost: 0 };
  for (const r of rows) {
    t.inputTokens += r.inputTokens;
    t.outputTokens += r.outputTokens;
    t.cacheWriteTokens += r.cacheWriteTokens;
    t.cacheReadTokens += r.cacheReadTokens;
    t.cost += r.cost;
  }
  return t;
}

const modelsColumn: TextColumn = { header: 'Models', shrink: { min: 12 }, drop: 6 };

/** With --by-agent, each period's agents on their own lines under it (`  codex`), as ccusage --by-agent. */
function agentLines(entry: AgentParts, extra: string[]): string[][] {
  return entry.agents.map((a) => [`  ${a}`, ...tokenCells(entry.agentBreakdown[a]!), ...extra]);
}

export function dailyTable(rows: readonly DailyEntry[], width: number, byAgent = false): string {
  const columns = [{ header: 'Date' }, ...tokenColumns, modelsColumn];
  const cells = rows.flatMap((d) => [[d.date, ...tokenCells(d), d.modelsUsed.join(', ')], ...(byAgent ? agentLines(d, ['']) : [])]);
  return formatTable(columns, cells, width, ['Total', ...tokenCells(sum(rows)), '']);
}

export function monthlyTable(rows: readonly MonthlyEntry[], width: number, byAgent = false): string {
  const columns = [{ header: 'Month' }, ...tokenColumns];
  const cells = rows.flatMap((m) => [[m.month, ...tokenCells(m)], ...(byAgent ? agentLines(m, []) : [])]);
  return formatTable(columns, cells, width, ['Total', ...tokenCells(sum(rows))]);
}

const agentColumn: TextColumn = { header: 'Agent', drop: 8 };

export function sessionTable(rows: readonly SessionEntry[], width: number, byAgent = false): string {
  const columns: TextColumn[] = [
    { header: 'Session', shrink: { min: 10 }, drop: 7 },
    ...(byAgent ? [agentColumn] : []),
    { header: 'Project', shrink: { min: 14, cutStart: true } },
    { header: 'Last activity' },
    ...tokenColumns,
    modelsColumn,
  ];
  const agent = (s: SessionEntry) => (byAgent ? [s.agent] : []);
  const cells = rows.map((s) => [s.sessionId, ...agent(s), s.projectPath, s.lastActivity.slice(0, 16).replace('T', ' '), ...tokenCells(s), s.modelsUsed.join(', ')]);
  return formatTable(columns, cells, width, ['Total', ...(byAgent ? [''] : []), '', '', ...tokenCells(sum(rows)), '']);
}

export function projectTable(rows: readonly ProjectEntry[], width: number, byAgent = false): string {
  const columns: TextColumn[] = [
    { header: 'Project', shrink: { min: 14, cutStart: true } },
    ...(byAgent ? [agentColumn] : []),
    { header: 'Sessions', align: 'right', drop: 1 },
    ...tokenColumns,
    { header: 'Top model', shrink: { min: 12 }, drop: 6 },
  ];
  const cells = rows.map((p) => [p.projectPath, ...(byAgent ? [p.agent] : []), int.format(p.sessions), ...tokenCells(p), p.topModel ?? '—']);
  return formatTable(columns, cells, width, ['Total', ...(byAgent ? [''] : []), int.format(rows.reduce((n, p) => n + p.sessions, 0)), ...tokenCells(sum(rows)), '']);
}

export function modelTable(rows: readonly ModelEntry[], width: number): string {
  const columns: TextColumn[] = [{ header: 'Model' }, ...tokenColumns, { header: 'Share', align: 'right', drop: 1 }];
  const cells = rows.map((m) => [m.model, ...tokenCells(m), `${m.percentage.toFixed(2)} %`]);
  return formatTable(columns, cells, width, ['Total', ...tokenCells(sum(rows)), rows.length ? '100.00 %' : '']);
}
