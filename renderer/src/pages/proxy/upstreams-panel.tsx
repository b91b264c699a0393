import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import type { UpstreamHealth, UpstreamsSaved } from '../../api-types.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { Empty, ErrorNotice, Loading, Notice } from '../../components/notice.js';
import { formatDuration, formatInt } from '../../lib/format.js';
import { useThrottledLiveReload } from '../../lib/live.js';
import { href } from '../../lib/router.js';
import { useResource } from '../../lib/use-resource.js';
import { UpstreamsForm } from './upstreams-form.js';
import './upstreams.css';

/**
 * The upstreams of proxy/config.yaml with their last hour (issue 30): success rate, median
 * latency of the successful requests, keys cooling down after a 429/5xx, and a mark when the
 * last three requests all failed. From the request log, so it also works while the proxy is off.
 */
export function UpstreamsPanel() {
  const list = useResource(api.upstreamHealth, []);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState<UpstreamsSaved | null>(null);
  useThrottledLiveReload(['proxy-request', 'proxy-state'], list.reload, 3_000, 30_000);
  const data = list.data;
  const now = data?.until ?? Date.now();
  const columns: Column<UpstreamHealth>[] = [
    {
      key: 'name',
      label: 'Upstream',
      render: (u) => (
        <div class="upstream-cell">
          <span>
            {u.name} <span class="tag">{u.format}</span>
            {u.failing ? (
              <span class="badge badge-bad upstream-failing">
                <span aria-hidden="true">✕</span> failing
              </span>
            ) : null}
          </span>
          <code class="upstream-url">{u.baseUrl}</code>
        </div>
      ),
    },
    { key: 'models', label: 'Models', render: (u) => (u.models.length === 0 ? <span class="muted">none</span> : u.models.join(', ')) },
    { key: 'requests', label: 'Requests (1 h)', numeric: true, render: (u) => formatInt(u.requests) },
    { key: 'success', label: 'Success', numeric: true, render: (u) => (u.successRate === null ? '—' : `${Math.round(u.successRate * 100)}%`) },
    { key: 'latency', label: 'Median latency', numeric: true, render: (u) => (u.medianLatencyMs === null ? '—' : `${formatInt(u.medianLatencyMs)} ms`) },
    {
      key: 'keys',
      label: 'Keys',
      render: (u) =>
        u.coolingKeys.length === 0 ? (
          <>{u.keyCount === 0 ? 'no key' : `${u.keyCount} ready`}</>
        ) : (
          <div class="upstream-keys">
            {u.coolingKeys.map((k) => (
              <span class="badge badge-warn" key={k.index}>
                key {k.index + 1} cooling · {formatDuration(k.until - now)}
              </span>
            ))}
            {u.keyCount > u.coolingKeys.length ? <span>{u.keyCount - u.coolingKeys.length} ready</span> : null}
          </div>
        ),
    },
    {
      key: 'error',
      label: 'Last error',
      render: (u) => (u.lastError ? <span class="upstream-error">{u.lastError.status}{u.lastError.message ? ` · ${u.lastError.message}` : ''}</span> : <span class="muted">none</span>),
    },
  ];
  return (
    <section class="panel" aria-labelledby="upstreams-title">
      <header class="panel-head">
        <h2 id="upstreams-title">Upstreams</h2>
        {data ? <span class="muted">last hour · keys cool {data.cooldownSeconds} s after a 429 or 5xx</span> : null}
        {data && !editing ? (
          <button type="button" class="btn btn-small" onClick={() => (setSaved(null), setEditing(true))}>
            Edit upstreams
          </button>
        ) : null}
      </header>
      {saved ? (
        <Notice tone={saved.proxy.error ? 'warning' : 'success'} title="Upstreams saved" onDismiss={() => setSaved(null)}>
          {saved.upstreams.length} upstream{saved.upstreams.length === 1 ? '' : 's'} in proxy/config.yaml
          {saved.proxy.restarted ? '; the proxy restarted to load them' : saved.proxy.running ? '' : '; the proxy loads them when it starts'}
          {saved.proxy.error ? `; the proxy did not restart: ${saved.proxy.error}` : ''}.
        </Notice>
      ) : null}
      {data && editing ? (
        <UpstreamsForm
          list={data}
          onCancel={() => setEditing(false)}
          onSaved={(result) => {
            setSaved(result);
            setEditing(false);
            void list.reload();
          }}
        />
      ) : null}
      <ErrorNotice error={list.error} context="Upstreams" />
      {!data && list.loading ? <Loading what="upstreams" /> : null}
      {data && data.upstreams.length === 0 ? (
        <Empty>
          No upstreams yet. <a href={href('providers')}>Add a provider</a>, or edit <a href={href('proxy', 'config')}>the config YAML</a>.
        </Empty>
      ) : null}
      {data && data.upstreams.length > 0 && !editing ? (
        <DataTable caption="Upstreams and their last hour" captionHidden columns={columns} rows={data.upstreams} rowKey={(u) => u.name} testId="upstream-health" />
      ) : null}
      <p class="muted">
        Order matters: for a model several upstreams serve, the engine tries them in the order of <code>upstreams</code>. Add one from{' '}
        <a href={href('providers')}>Providers</a>.
      </p>
    </section>
  );
}
