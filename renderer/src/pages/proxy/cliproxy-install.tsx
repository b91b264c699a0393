import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api.js';
import type { CliproxyInstalled, CliproxyStatus } from '../../api-types.js';
import { ErrorNotice, Notice } from '../../components/notice.js';
import { installedLine, progressLine, progressPercent, refusalAdvice, type InstallProgress } from '../../lib/cliproxy-advice.js';
import { useLiveEvent } from '../../lib/live.js';
import { useAction } from '../../lib/use-action.js';

type Backend = CliproxyStatus['backend'];

/**
 * Install / Update with a progress bar from the `cliproxy-install` events, the result ("6.9.44 →
 * 6.9.45, restarted"), and a refusal with what to do next. A known-bad version asks before it is
 * installed anyway (`force`).
 */
export function CliproxyInstall(props: { status: CliproxyStatus; backend: Backend; onDone: () => void }) {
  const { status, backend } = props;
  const [progress, setProgress] = useState<InstallProgress | null>(null);
  useLiveEvent('cliproxy-install', (data) => {
    if (isProgress(data)) setProgress({ received: data.received, total: data.total });
  });
  const install = useAction(async (): Promise<CliproxyInstalled> => {
    setProgress({ received: 0, total: null });
    try {
      return await installOrConfirm(backend);
    } finally {
      setProgress(null);
      props.onDone();
    }
  });
  const label = buttonLabel(status, backend);
  return (
    <div class="cpx-install" data-testid="cliproxy-install">
      {label ? (
        <button type="button" class="btn btn-primary" disabled={install.busy} onClick={() => void install.run()}>
          {install.busy ? 'Installing…' : label}
        </button>
      ) : (
        <p class="muted">Up to date.</p>
      )}
      {install.busy && progress ? (
        <div class="cpx-progress" data-testid="cliproxy-progress">
          <progress max={100} value={progress.total ? progressPercent(progress) : undefined} aria-label="Download progress" />
          <span class="muted">{progressLine(progress)}</span>
        </div>
      ) : null}
      {install.result ? (
        <Notice tone="success" title="CLIProxyAPI updated" onDismiss={install.clear}>
          <span data-testid="cliproxy-result">{installedLine(install.result)}</span>
        </Notice>
      ) : null}
      <Refusal error={install.error} onDismiss={install.clear} />
    </div>
  );
}

async function installOrConfirm(backend: Backend): Promise<CliproxyInstalled> {
  try {
    return await api.cliproxyInstall({ backend });
  } catch (err) {
    if (!(err instanceof ApiError) || err.error !== 'Known-bad version') throw err;
    if (!window.confirm(`${err.detail ?? 'This version is on the known-bad list.'}\n\nInstall it anyway (force)?`)) throw err;
    return api.cliproxyInstall({ backend, force: true });
  }
}

/** The install route's refusals with the next step; anything else as the API said it. */
function Refusal(props: { error: unknown; onDismiss: () => void }) {
  const advice = props.error instanceof ApiError ? refusalAdvice(props.error.error) : null;
  if (!advice || !(props.error instanceof ApiError)) return <ErrorNotice error={props.error} context="Install" onDismiss={props.onDismiss} />;
  return (
    <Notice tone="error" title={`${props.error.error}: ${advice.title}`} onDismiss={props.onDismiss}>
      <p class="cpx-detail" data-testid="cliproxy-refusal">{props.error.detail}</p>
      <p class="cpx-next">
        <strong>What now:</strong> {advice.next}
      </p>
    </Notice>
  );
}

/** Null when the installed binary is what an install would bring (the pin, else the latest). */
function buttonLabel(s: CliproxyStatus, backend: Backend): string | null {
  const name = backend === 'plus' ? 'CLIProxyAPI Plus' : 'CLIProxyAPI';
  if (!s.installed) return `Install ${name}`;
  if (backend !== s.backend) return `Switch to ${name}`;
  const target = s.pinned ?? s.latestVersion;
  if (!target || target.replace(/^v/, '') === s.version) return null;
  return s.pinned ? `Install pinned ${target}` : `Update to ${target}`;
}

function isProgress(d: unknown): d is InstallProgress {
  const p = d as Partial<InstallProgress> | null;
  return typeof p === 'object' && p !== null && typeof p.received === 'number' && (p.total === null || typeof p.total === 'number');
}
