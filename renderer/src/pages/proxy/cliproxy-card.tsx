import { useRef, useState } from 'preact/hooks';
import { api } from '../../api.js';
import type { CliproxyStatus } from '../../api-types.js';
import { ErrorNotice, Loading } from '../../components/notice.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useAction } from '../../lib/use-action.js';
import { useResource } from '../../lib/use-resource.js';
import { CliproxyInstall } from './cliproxy-install.js';
import { CliproxyPin } from './cliproxy-pin.js';
import './cliproxy.css';

type Backend = CliproxyStatus['backend'];

/**
 * The managed CLIProxyAPI binary (decisions §4.1, issue 31): what is installed and running, the
 * pin and known-bad list, the latest release, Install / Update with progress, Start / Stop and
 * Uninstall. The binary serves the agy, kiro and gemini accounts; codex and ghcp never need it.
 */
export function CliproxyCard() {
  const force = useRef(false);
  const status = useResource(() => {
    const forced = force.current;
    force.current = false;
    return api.cliproxyStatus(forced);
  }, []);
  const [chosen, setChosen] = useState<Backend | null>(null);
  const act = useAction(async (what: 'start' | 'stop' | 'uninstall') => {
    if (what === 'start') await api.cliproxyStart();
    else if (what === 'stop') await api.cliproxyStop();
    else if (!window.confirm('Remove the CLIProxyAPI binary? Your agy, kiro and gemini accounts in proxy/auth/ stay; install it again to use them.')) return;
    else await api.cliproxyUninstall();
    await status.reload();
  });
  const s = status.data;
  const backend = chosen ?? s?.backend ?? 'original';
  return (
    <section class="panel cpx-card" aria-labelledby="cpx-title" data-testid="cliproxy-card">
      <header class="panel-head">
        <h2 id="cpx-title">CLIProxyAPI</h2>
        {s ? <Badge s={s} /> : null}
      </header>
      <p class="muted cpx-serves">
        Serves <strong>agy</strong> (Antigravity) with the original backend, <strong>kiro</strong> and <strong>gemini</strong> with Plus; codex and ghcp run in
        the built-in engine.
      </p>
      <p class="cpx-backend">
        <label>
          Backend for the next install{' '}
          <select value={backend} onChange={(e) => setChosen((e.currentTarget as HTMLSelectElement).value as Backend)} data-testid="cliproxy-backend">
            <option value="original">original (agy)</option>
            <option value="plus">Plus (kiro, gemini, agy)</option>
          </select>
        </label>
      </p>
      <ErrorNotice error={status.error} context="CLIProxyAPI" />
      {!s && status.loading ? <Loading what="CLIProxyAPI" /> : null}
      {s ? (
        <>
          <Facts s={s} />
          <CliproxyPin pinned={s.pinned} onChange={() => void status.reload()} />
          <CliproxyInstall status={s} backend={backend} onDone={() => void status.reload()} />
          <ErrorNotice error={act.error} context="CLIProxyAPI" onDismiss={act.clear} />
          {s.installed ? (
            <div class="actions">
              {s.running ? (
                <button type="button" class="btn" disabled={act.busy} onClick={() => void act.run('stop')}>Stop</button>
              ) : (
                <button type="button" class="btn" disabled={act.busy} onClick={() => void act.run('start')}>Start</button>
              )}
              <button type="button" class="btn btn-danger" disabled={act.busy} onClick={() => void act.run('uninstall')}>Uninstall</button>
              <button type="button" class="btn btn-quiet" disabled={status.loading} onClick={() => {
                  force.current = true;
                  void status.reload();
                }}
              >
                Check for updates
              </button>
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function Badge(props: { s: CliproxyStatus }) {
  const { s } = props;
  if (!s.installed) return <StatusBadge kind="off" label="Not installed" />;
  return s.running ? <StatusBadge kind="ok" label="Running" /> : <StatusBadge kind="off" label="Stopped" />;
}

function Facts(props: { s: CliproxyStatus }) {
  const { s } = props;
  return (
    <dl class="facts" data-testid="cliproxy-facts">
      <dt>Installed</dt>
      <dd data-testid="cliproxy-version">{s.installed ? `${s.version} (${s.backend === 'plus' ? 'Plus' : 'original'})` : 'Not installed'}</dd>
      {s.path ? (
        <>
          <dt>Path</dt>
          <dd>
            <code>{s.path}</code>
          </dd>
        </>
      ) : null}
      <dt>Running</dt>
      <dd>{s.running ? `Yes, on 127.0.0.1:${s.port}` : s.installed ? 'No (starts when an account needs it)' : 'No'}</dd>
      <dt>Latest</dt>
      <dd data-testid="cliproxy-latest">{s.latestVersion ?? 'Unknown: the release feed did not answer'}</dd>
      <dt>Known-bad</dt>
      <dd>{s.knownBad.length > 0 ? s.knownBad.join(', ') : 'none'}</dd>
    </dl>
  );
}
