import { useState } from 'preact/hooks';
import { api, type SessionSelection, type UsageQuery } from '../../api.js';
import type { Session } from '../../api-types.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { ExportButtons } from '../../components/export-buttons.js';
import { Empty, ErrorNotice, Loading } from '../../components/notice.js';
import { formatCost, formatInt } from '../../lib/format.js';
import { readAllPages } from '../../lib/all-pages.js';
import { PathText } from '../../lib/path-breaks.js';
import type { ExportColumn } from '../../lib/table-export.js';
import { SessionId } from './session-id.js';
import { useResource } from '../../lib/use-resource.js';

const PAGE = 20;

/**
 * Which session, then what it cost and how big it was (the page's question), then the rest:
 * at 800 px the first five columns fit, and the others scroll sideways (issue 28.6).
 */
const columns: Column<Session>[] = [
  { key: 'session', label: 'Session', render: (s) => <SessionId id={s.sessionId} /> },
  { key: 'project', label: 'Project', render: (s) => <span class="path table-path">{s.projectPath ? <PathText path={s.projectPath} /> : '—'}</span> },
  { key: 'cost', label: 'Cost', numeric: true, render: (s) => formatCost(s.cost) },
  { key: 'total', label: 'Total tokens', numeric: true, render: (s) => formatInt(s.totalTokens) },
  { key: 'last', label: 'Last activity', render: (s) => <span class="nowrap">{new Date(s.lastActivity).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}</span> },
  { key: 'in', label: 'Input', numeric: true, render: (s) => formatInt(s.inputTokens) },
  { key: 'out', label: 'Output', numeric: true, render: (s) => formatInt(s.outputTokens) },
  { key: 'cw', label: 'Cache write', numeric: true, render: (s) => formatInt(s.cacheWriteTokens) },
  { key: 'cr', label: 'Cache read', numeric: true, render: (s) => formatInt(s.cacheReadTokens) },
  { key: 'models', label: 'Models', render: (s) => <span class="models">{s.modelsUsed.map((m) => <code class="model" key={m}>{m}</code>)}</span> },
  // Claude Code sessions show their version, as before; another agent's show which agent it was.
  { key: 'version', label: 'Client', render: (s) => (s.agent === 'claude' ? s.version || '—' : <code>{s.agent}</code>) },
];

const sessionExport: ExportColumn<Session>[] = [
  { header: 'sessionId', value: (s) => s.sessionId },
  { header: 'projectPath', value: (s) => s.projectPath },
  { header: 'lastActivity', value: (s) => s.lastActivity },
  { header: 'cost', value: (s) => s.cost },
  { header: 'inputTokens', value: (s) => s.inputTokens },
  { header: 'outputTokens', value: (s) => s.outputTokens },
  { header: 'cacheWriteTokens', value: (s) => s.cacheWriteTokens },
  { header: 'cacheReadTokens', value: (s) => s.cacheReadTokens },
  { header: 'totalTokens', value: (s) => s.totalTokens },
  { header: 'modelsUsed', value: (s) => s.modelsUsed.join(' ') },
  { header: 'version', value: (s) => s.version },
];

const SORTS: Array<[NonNullable<SessionSelection['sort']>, string]> = [
  ['lastActivity', 'Last activity'],
  ['cost', 'Cost'],
  ['tokens', 'Total tokens'],
];

/** Every session of a selection, in its order, a page of the API's largest size at a time (for the export). */
function allSessions(q: UsageQuery & SessionSelection): Promise<Session[]> {
  return readAllPages((offset) => api.usageSessions({ ...q, limit: 1000, offset }).then((p) => ({ rows: p.sessions, total: p.total })), (s) => s.sessionId);
}

/** Sessions a page at a time (the API sorts, filters and pages; we never load them all). */
export function SessionsTable(props: {
  query: UsageQuery;
  version: number;
  selection: SessionSelection;
  onSelection: (s: SessionSelection) => void;
  projects: string[];
  models: string[];
}) {
  const [offset, setOffset] = useState(0);
  const sel = props.selection;
  const key = JSON.stringify([props.query, sel]);
  const [lastKey, setLastKey] = useState(key);
  if (key !== lastKey) {
    setLastKey(key);
    setOffset(0);
  }
  const page = useResource(() => api.usageSessions({ ...props.query, ...sel, limit: PAGE, offset }), [key, offset, props.version]);
  const d = page.data;
  const set = (patch: Partial<SessionSelection>) => props.onSelection({ ...sel, ...patch });
  const order = sel.order ?? 'desc';
  const filtered = sel.project !== undefined || sel.model !== undefined;
  return (
    <section class="panel" aria-labelledby="sessions-title" data-testid="sessions">
      <header class="panel-head">
        <h3 id="sessions-title">Sessions</h3>
        <ExportButtons name="usage-sessions" label="sessions" columns={sessionExport} rows={d?.sessions ?? []} load={() => allSessions({ ...props.query, ...sel })} />
      </header>
      <form class="filters session-filters" aria-label="Session order and filters" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="session-sort">Sort by</label>
          <select id="session-sort" value={sel.sort ?? 'lastActivity'} onChange={(e) => set({ sort: e.currentTarget.value as SessionSelection['sort'] })}>
            {SORTS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="session-order">Order</label>
          <select id="session-order" value={order} onChange={(e) => set({ order: e.currentTarget.value as SessionSelection['order'] })}>
            <option value="desc">Highest / newest first</option>
            <option value="asc">Lowest / oldest first</option>
          </select>
        </div>
        <div class="field">
          <label for="session-project">Project</label>
          <select id="session-project" value={sel.project ?? ''} onChange={(e) => set({ project: e.currentTarget.value || undefined })}>
            <option value="">All projects</option>
            {withCurrent(props.projects, sel.project).map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="session-model">Model</label>
          <select id="session-model" value={sel.model ?? ''} onChange={(e) => set({ model: e.currentTarget.value || undefined })}>
            <option value="">All models</option>
            {withCurrent(props.models, sel.model).map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </div>
        {filtered ? (
          <button type="button" class="btn btn-small" onClick={() => set({ project: undefined, model: undefined })}>
            Clear filters
          </button>
        ) : null}
      </form>
      {d && d.total > 0 ? (
        <nav class="pager" aria-label="Sessions pages">
          <span class="muted" aria-live="polite">
            {d.offset + 1}–{Math.min(d.offset + d.sessions.length, d.total)} of {formatInt(d.total)}
          </span>
          <button type="button" class="btn btn-small" disabled={offset === 0 || page.loading} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            <span aria-hidden="true">‹ </span>Previous
          </button>
          <button type="button" class="btn btn-small" disabled={offset + PAGE >= d.total || page.loading} onClick={() => setOffset(offset + PAGE)}>
            Next<span aria-hidden="true"> ›</span>
          </button>
        </nav>
      ) : null}
      <ErrorNotice error={page.error} />
      {!d && page.loading ? <Loading what="sessions" /> : null}
      {d && d.sessions.length === 0 ? <Empty>{filtered ? 'No sessions match these filters in this period.' : 'No sessions in this period.'}</Empty> : null}
      {d && d.sessions.length > 0 ? (
        <DataTable caption="Sessions" captionHidden columns={columns} rows={d.sessions} rowKey={(s) => s.sessionId} testId="table-sessions" />
      ) : null}
    </section>
  );
}

/** A filter picked earlier stays selectable even when the new period has no such project or model. */
function withCurrent(options: string[], current: string | undefined): string[] {
  return current !== undefined && !options.includes(current) ? [current, ...options] : options;
}
