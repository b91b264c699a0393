import { useEffect, useRef } from 'preact/hooks';
import { api, ApiError } from '../../api.js';
import type { ErrorLogFile } from '../../api-types.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { Empty, ErrorNotice, Loading, Notice } from '../../components/notice.js';
import { StatusBadge } from '../../components/status-badge.js';
import { parseErrorLog } from '../../lib/error-log.js';
import { formatBytes, formatTime } from '../../lib/format.js';
import { href } from '../../lib/router.js';
import { useResource } from '../../lib/use-resource.js';

/**
 * The kept error logs; `selected` (from `#/proxy/logs/<name>`, the Traffic view's click-through)
 * opens one in the viewer. Opening and closing a log updates the address, so it can be linked.
 */
export function ErrorLogsPanel(props: { selected?: string }) {
  const logs = useResource(api.errorLogs, []);
  const open = props.selected ?? null;
  const setOpen = (name: string | null) => {
    location.hash = name ? href('proxy', 'logs', name) : href('proxy', 'logs');
  };
  const columns: Column<ErrorLogFile>[] = [
    { key: 'time', label: 'Time', render: (f) => formatTime(f.mtime) },
    { key: 'status', label: 'Status', render: (f) => (f.statusCode ? <StatusBadge kind="bad" label={String(f.statusCode)} /> : '—') },
    { key: 'model', label: 'Model', render: (f) => (f.model ? <code>{f.model}</code> : '—') },
    { key: 'size', label: 'Size', numeric: true, render: (f) => formatBytes(f.size) },
    {
      key: 'open',
      label: 'Log',
      render: (f) => (
        <button type="button" class="btn btn-small" aria-pressed={open === f.name} onClick={() => setOpen(f.name)} title={f.name}>
          View<span class="sr-only"> {f.name}</span>
        </button>
      ),
    },
  ];
  return (
    <>
      <section class="panel" aria-labelledby="logs-title">
        <header class="panel-head">
          <h2 id="logs-title">Error logs</h2>
          <button type="button" class="btn btn-small" onClick={() => void logs.reload()}>
            <span aria-hidden="true">↻ </span>Reload
          </button>
        </header>
        <p class="muted">The proxy keeps its newest failed requests (how many: <code>proxy.error_log_keep</code> in config.yaml, 100 by default, capped by size), with secrets masked.</p>
        <ErrorNotice error={logs.error} />
        {!logs.data && logs.loading ? <Loading what="error logs" /> : null}
        {logs.data?.files.length === 0 ? <Empty>No failed requests logged.</Empty> : null}
        {logs.data && logs.data.files.length > 0 ? (
          <DataTable caption="Error logs" captionHidden columns={columns} rows={logs.data.files} rowKey={(f) => f.name} testId="error-logs" />
        ) : null}
      </section>
      {open ? <LogViewer name={open} onClose={() => setOpen(null)} /> : null}
    </>
  );
}

function LogViewer(props: { name: string; onClose: () => void }) {
  const content = useResource(() => api.errorLog(props.name), [props.name]);
  const parsed = content.data !== undefined ? parseErrorLog(content.data) : null;
  const heading = useRef<HTMLHeadingElement>(null);
  // Bring the viewer to the user (and keyboard focus with it) when a log is opened.
  useEffect(() => {
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus();
  }, [props.name]);
  return (
    <section class="panel" aria-labelledby="log-viewer-title" data-testid="log-viewer">
      <header class="panel-head">
        <h2 id="log-viewer-title" ref={heading} tabIndex={-1}>
          <span class="path">{props.name}</span>
        </h2>
        <div class="panel-tools">
          {parsed?.status ? <StatusBadge kind="bad" label={`Status ${parsed.status}`} /> : null}
          <button type="button" class="btn btn-small" onClick={props.onClose}>
            Close viewer
          </button>
        </div>
      </header>
      {content.error instanceof ApiError && content.error.status === 404 ? (
        <Notice tone="warning" title="This error log is no longer kept">
          Only the newest error logs are kept; older ones are removed as new failures arrive.
        </Notice>
      ) : (
        <ErrorNotice error={content.error} />
      )}
      {content.loading && !parsed ? <Loading what="log" /> : null}
      {parsed ? (
        <div class="compare">
          <figure class="compare-side">
            <figcaption>Request</figcaption>
            <pre tabIndex={0} aria-label="Request" data-testid="log-request">{parsed.request || '(empty)'}</pre>
          </figure>
          <figure class="compare-side">
            <figcaption>Response</figcaption>
            <pre tabIndex={0} aria-label="Response" data-testid="log-response">{parsed.response || '(no response section)'}</pre>
          </figure>
        </div>
      ) : null}
    </section>
  );
}
