import { useState } from 'preact/hooks';
import { api, type UsageQuery } from '../../api.js';
import type { Session } from '../../api-types.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { Empty, ErrorNotice, Loading } from '../../components/notice.js';
import { formatCost, formatInt } from '../../lib/format.js';
import { useResource } from '../../lib/use-resource.js';

const PAGE = 20;

const columns: Column<Session>[] = [
  { key: 'project', label: 'Project', render: (s) => <span class="path" title={s.sessionId}>{s.projectPath || '—'}</span> },
  { key: 'last', label: 'Last activity', render: (s) => <span class="nowrap">{new Date(s.lastActivity).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}</span> },
  { key: 'in', label: 'Input', numeric: true, render: (s) => formatInt(s.inputTokens) },
  { key: 'out', label: 'Output', numeric: true, render: (s) => formatInt(s.outputTokens) },
  { key: 'cost', label: 'Cost', numeric: true, render: (s) => formatCost(s.cost) },
  { key: 'models', label: 'Models', render: (s) => s.modelsUsed.join(', ') },
  { key: 'version', label: 'Client', render: (s) => s.version || '—' },
];

/** Sessions, newest first, a page at a time (the API pages; we never load them all). */
export function SessionsTable(props: { query: UsageQuery; version: number }) {
  const [offset, setOffset] = useState(0);
  const key = JSON.stringify(props.query);
  const [lastKey, setLastKey] = useState(key);
  if (key !== lastKey) {
    setLastKey(key);
    setOffset(0);
  }
  const page = useResource(() => api.usageSessions({ ...props.query, limit: PAGE, offset }), [key, offset, props.version]);
  const d = page.data;
  return (
    <section class="panel" aria-labelledby="sessions-title" data-testid="sessions">
      <header class="panel-head">
        <h3 id="sessions-title">Sessions</h3>
        {d && d.total > 0 ? (
          <nav class="pager" aria-label="Sessions pages">
            <span class="muted" aria-live="polite">
              {d.offset + 1}–{Math.min(d.offset + d.sessions.length, d.total)} of {formatInt(d.total)}
            </span>
            <button type="button" class="btn btn-small" disabled={offset === 0 || page.loading} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
              <span aria-hidden="true">‹ </span>Newer
            </button>
            <button type="button" class="btn btn-small" disabled={offset + PAGE >= d.total || page.loading} onClick={() => setOffset(offset + PAGE)}>
              Older<span aria-hidden="true"> ›</span>
            </button>
          </nav>
        ) : null}
      </header>
      <ErrorNotice error={page.error} />
      {!d && page.loading ? <Loading what="sessions" /> : null}
      {d && d.sessions.length === 0 ? <Empty>No sessions in this period.</Empty> : null}
      {d && d.sessions.length > 0 ? (
        <DataTable caption="Sessions" captionHidden columns={columns} rows={d.sessions} rowKey={(s) => s.sessionId} />
      ) : null}
    </section>
  );
}
