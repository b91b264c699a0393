import type { AgentDiagnostics } from '../api-types.js';
import { Notice } from '../components/notice.js';
import { StatusBadge } from '../components/status-badge.js';
import { formatBytes, formatTime } from '../lib/format.js';
import { href } from '../lib/router.js';

/** True when no agent tool is installed at all: the page says so instead of showing a file. */
export function noAgentInstalled(d: AgentDiagnostics): boolean {
  return d.tool.source === 'none';
}

/** The agent shown, why it was picked, what else is on PATH, and the settings file's state. */
export function Diagnostics(props: { diag: AgentDiagnostics }) {
  const d = props.diag;
  const none = noAgentInstalled(d);
  return (
    <section class="panel" aria-labelledby="diag-title" data-testid="agent-diagnostics">
      <header class="panel-head">
        <h2 id="diag-title">Diagnostics</h2>
        <a href={href('settings')}>Change binary or settings path</a>
      </header>
      {none ? (
        <Notice tone="info" title="No agent tool is installed">
          Switchboard looked on PATH for droid, claude, gemini and opencode and found none of them. Install one, or name another
          agent's binary in <a href={href('settings')}>Settings</a>; this page then shows its settings file.
        </Notice>
      ) : (
        <dl class="facts facts-wide">
          <dt>Agent</dt>
          <dd>
            <strong>{d.tool.name ?? d.tool.binary}</strong> <code>{d.tool.binary}</code>{' '}
            <span class="muted">{d.tool.source === 'detected' ? '· found on PATH (the default, droid, is not installed)' : '· from Settings'}</span>
          </dd>
          <dt>Binary</dt>
          <dd>
            {d.binary.installed ? <StatusBadge kind="ok" label="Installed" /> : <StatusBadge kind="bad" label="Not found" />}{' '}
            {d.binary.path ? <code>{d.binary.path}</code> : null} {d.binary.version ? <span class="tag">{d.binary.version}</span> : null}
          </dd>
          <dt>Also on PATH</dt>
          <dd>{others(d)}</dd>
          <dt>Settings file</dt>
          <dd data-testid="agent-settings-file">
            {d.settingsFile.exists ? (
              d.settingsFile.parseError ? (
                <StatusBadge kind="bad" label="Unreadable JSON" />
              ) : (
                <StatusBadge kind="ok" label="Present" />
              )
            ) : (
              <StatusBadge kind="off" label="Not created yet" />
            )}{' '}
            <code>{d.settingsFile.path}</code>
            {d.settingsFile.exists ? (
              <span class="muted">
                {' '}
                · {formatBytes(d.settingsFile.sizeBytes ?? 0)} · {formatTime(d.settingsFile.mtime)}
              </span>
            ) : null}
          </dd>
        </dl>
      )}
      {none
        ? null
        : d.warnings.map((w) => (
            <Notice key={w} tone="warning">
              {w}
            </Notice>
          ))}
    </section>
  );
}

function others(d: AgentDiagnostics): string {
  const rest = d.detected.filter((a) => a.binary !== d.tool.binary);
  return rest.length === 0 ? 'no other known agent' : rest.map((a) => `${a.name} (${a.binary})`).join(', ');
}
