import { api } from '../api.js';
import type { BridgeStatus } from '../api-types.js';
import { href } from '../lib/router.js';
import { useState } from 'preact/hooks';
import { useLiveEvent, useLiveReload } from '../lib/live.js';
import { useAction } from '../lib/use-action.js';
import type { Resource } from '../lib/use-resource.js';
import { ErrorNotice, Loading, Notice } from './notice.js';
import { StatusBadge } from './status-badge.js';

export function bridgeBadge(s: BridgeStatus) {
  if (!s.enabled) return <StatusBadge kind="off" label="Disabled" />;
  if (s.daemonRunning) return <StatusBadge kind="ok" label="Running" />;
  return <StatusBadge kind="off" label="Stopped" />;
}

export function authBadge(s: BridgeStatus) {
  if (!s.authenticated) return <StatusBadge kind="warn" label="No credentials" />;
  if (s.tokenExpired) return <StatusBadge kind="bad" label="Credentials expired" />;
  return <StatusBadge kind="ok" label="Credentials valid" />;
}

/** Bridge daemon state with Start/Stop. The caller owns the status resource (shared on the Bridge page). */
export function BridgeControl(props: { status: Resource<BridgeStatus>; showLink?: boolean; title?: string }) {
  const { status } = props;
  useLiveReload(['bridge-state'], status.reload, 10_000);
  const start = useAction(api.bridgeStart);
  const stop = useAction(api.bridgeStop);
  const s = status.data;
  // The status says only whether the daemon runs; the event stream says why it stopped.
  const [failure, setFailure] = useState<string | null>(null);
  useLiveEvent('bridge-state', (data) => {
    const d = data as { state?: string; message?: string } | undefined;
    if (d?.state === 'failed') {
      setFailure(d.message ?? 'The bridge daemon stopped unexpectedly.');
      start.clear();
    } else if (d?.state === 'running') setFailure(null);
  });
  const act = async (which: 'start' | 'stop') => {
    setFailure(null);
    start.clear();
    stop.clear();
    await (which === 'start' ? start.run() : stop.run());
    await status.reload();
  };

  return (
    <section class="panel" aria-labelledby="bridge-control-title" data-testid="bridge-control">
      <header class="panel-head">
        <h2 id="bridge-control-title">
          {props.title ?? (
            <>
              Editor bridge <span class="tag">deprecated · beta</span>
            </>
          )}
        </h2>
        <div>{s ? failure && !s.daemonRunning ? <StatusBadge kind="bad" label="Failed" /> : bridgeBadge(s) : null}</div>
      </header>
      {status.loading && !s ? <Loading what="bridge status" /> : null}
      <ErrorNotice error={status.error} context="Bridge status" />
      {s ? (
        <dl class="facts">
          <dt>Credentials</dt>
          <dd>{authBadge(s)}</dd>
          <dt>Port</dt>
          <dd>{s.port}</dd>
          {s.daemonRunning ? (
            <>
              <dt>PID</dt>
              <dd>{s.pid}</dd>
            </>
          ) : null}
          {s.tokenAgeHours != null ? (
            <>
              <dt>Token age</dt>
              <dd>{s.tokenAgeHours.toFixed(1)} h</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {s && !s.enabled ? (
        <p class="muted">
          The bridge is disabled. {props.showLink ? <a href={href('bridge')}>Enable it on the Bridge page</a> : 'Enable it in the settings below.'}
        </p>
      ) : null}
      <div class="actions">
        <button type="button" class="btn btn-primary" onClick={() => act('start')} disabled={start.busy || stop.busy || !s || s.daemonRunning}>
          {start.busy ? 'Starting…' : 'Start bridge'}
        </button>
        <button type="button" class="btn" onClick={() => act('stop')} disabled={start.busy || stop.busy || !s || !s.daemonRunning}>
          {stop.busy ? 'Stopping…' : 'Stop bridge'}
        </button>
      </div>
      {failure ? (
        <Notice tone="error" title="The bridge daemon failed" onDismiss={() => setFailure(null)}>
          {failure}
        </Notice>
      ) : null}
      <ErrorNotice error={start.error} context="Start bridge" onDismiss={start.clear} />
      <ErrorNotice error={stop.error} context="Stop bridge" onDismiss={stop.clear} />
      {start.result ? <Notice tone="success" onDismiss={start.clear}>Bridge started on port {start.result.port} (PID {start.result.pid}).</Notice> : null}
      {stop.result ? <Notice tone="success" onDismiss={stop.clear}>{stop.result.stopped ? 'Bridge stopped.' : 'The bridge was not running.'}</Notice> : null}
    </section>
  );
}
