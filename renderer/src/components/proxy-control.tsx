import { api } from '../api.js';
import type { ProxyStatus } from '../api-types.js';
import { formatDuration, formatTime } from '../lib/format.js';
import { useLiveEvent, useLiveReload, useNow } from '../lib/live.js';
import { useState } from 'preact/hooks';
import { useAction } from '../lib/use-action.js';
import { useResource } from '../lib/use-resource.js';
import { CopyButton } from './copy-button.js';
import { ErrorNotice, Loading, Notice } from './notice.js';
import { StatusBadge } from './status-badge.js';

export function proxyBadge(status: ProxyStatus | undefined, failed = false) {
  if (!status) return <StatusBadge kind="off" label="Unknown" />;
  if (status.running) return <StatusBadge kind="ok" label="Running" />;
  if (failed || status.state === 'failed') return <StatusBadge kind="bad" label="Failed" />;
  if (status.state === 'starting') return <StatusBadge kind="warn" label="Starting" />;
  return <StatusBadge kind="off" label="Stopped" />;
}

/** Proxy state with Start/Stop; live through /api/events, else a visible-only poll. */
export function ProxyControl(props: { compact?: boolean }) {
  const status = useResource(api.proxyStatus, []);
  useLiveReload(['proxy-state'], status.reload, 5000);
  const now = useNow(props.compact ? 60_000 : 1000);
  const start = useAction(api.proxyStart);
  const stop = useAction(api.proxyStop);
  const restart = useAction(api.proxyRestart);
  const busy = start.busy || stop.busy || restart.busy;
  const s = status.data;
  // Status only says "not running"; the event stream also says why (crash, failed start).
  const [failure, setFailure] = useState<string | null>(null);
  useLiveEvent('proxy-state', (data) => {
    const d = data as { state?: string; message?: string } | undefined;
    if (d?.state === 'failed') {
      setFailure(d.message ?? 'The proxy stopped unexpectedly.');
      start.clear();
    }
    else if (d?.state === 'running') setFailure(null);
  });

  const onStart = async () => {
    setFailure(null);
    stop.clear();
    restart.clear();
    await start.run();
    await status.reload();
  };
  const onStop = async () => {
    start.clear();
    restart.clear();
    await stop.run();
    await status.reload();
  };
  // Issue 28.7: picks up a changed key, secret or config.yaml; the tray offers the same.
  const onRestart = async () => {
    setFailure(null);
    start.clear();
    stop.clear();
    await restart.run();
    await status.reload();
  };

  return (
    <section class="panel" aria-labelledby="proxy-control-title" data-testid="proxy-control">
      <header class="panel-head">
        <h2 id="proxy-control-title">Proxy</h2>
        <div data-testid="proxy-state">{s ? proxyBadge(s, failure !== null) : null}</div>
      </header>
      {status.loading && !s ? <Loading what="proxy status" /> : null}
      <ErrorNotice error={status.error} context="Proxy status" />
      {s?.running ? (
        <dl class="facts">
          <dt>Base URL</dt>
          <dd>
            <code>http://127.0.0.1:{s.port}</code> <CopyButton text={`http://127.0.0.1:${s.port}`} label="proxy base URL" />
          </dd>
          <dt>Port</dt>
          <dd>{s.port}</dd>
          <dt>PID</dt>
          <dd>{s.pid}</dd>
          <dt>Active sessions</dt>
          <dd>{s.sessionCount}</dd>
          <dt>Up for</dt>
          <dd title={formatTime(s.startedAt)}>{formatDuration(now - s.startedAt)}</dd>
        </dl>
      ) : s ? (
        <p class="muted">{'message' in s && s.message ? s.message : 'The proxy is not running.'}</p>
      ) : null}
      <div class="actions">
        <button type="button" class="btn btn-primary" onClick={onStart} disabled={busy || s?.running === true}>
          {start.busy ? 'Starting…' : 'Start proxy'}
        </button>
        <button type="button" class="btn" onClick={onStop} disabled={busy || s?.running === false}>
          {stop.busy ? 'Stopping…' : 'Stop proxy'}
        </button>
        <button type="button" class="btn" onClick={onRestart} disabled={busy || s?.running !== true}>
          {restart.busy ? 'Restarting…' : 'Restart'}
        </button>
      </div>
      {failure ? (
        <Notice tone="error" title="The proxy failed" onDismiss={() => setFailure(null)}>
          {failure}
        </Notice>
      ) : null}
      <ErrorNotice error={start.error} context="Start" onDismiss={start.clear} />
      <ErrorNotice error={stop.error} context="Stop" onDismiss={stop.clear} />
      <ErrorNotice error={restart.error} context="Restart" onDismiss={restart.clear} />
      {restart.result ? (
        <Notice tone="success" onDismiss={restart.clear}>
          {restart.result.restarted ? `Restarted on port ${restart.result.port} (PID ${restart.result.pid}).` : `Started on port ${restart.result.port}.`}
        </Notice>
      ) : null}
      {start.result ? (
        <Notice tone="success" onDismiss={start.clear}>
          {start.result.alreadyRunning ? `Already running on port ${start.result.port}.` : `Started on port ${start.result.port}.`}
        </Notice>
      ) : null}
      {stop.result ? (
        <Notice tone={stop.result.stopped ? 'success' : 'info'} onDismiss={stop.clear}>
          {stop.result.stopped
            ? `Stopped (PID ${stop.result.pid}, ${stop.result.sessionCount ?? 0} active sessions).`
            : (stop.result.message ?? 'The proxy was not running.')}
        </Notice>
      ) : null}
    </section>
  );
}
