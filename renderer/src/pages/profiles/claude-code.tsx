import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import type { ClaudeCodeApplied, ClaudeCodeState, ClaudeCodeUndone } from '../../api-types.js';
import { ErrorNotice, Loading, Notice } from '../../components/notice.js';
import { StatusBadge } from '../../components/status-badge.js';
import { formatTime } from '../../lib/format.js';
import { useLiveReload } from '../../lib/live.js';
import { useAction, type Action } from '../../lib/use-action.js';
import { useResource, type Resource } from '../../lib/use-resource.js';
import { ClaudeCodeConfirms, StaleNotice, type Confirming } from './claude-code-notices.js';

export interface ClaudeCode {
  state: Resource<ClaudeCodeState>;
  apply: Action<[string], ClaudeCodeApplied>;
  undo: Action<[], ClaudeCodeUndone>;
  restore: Action<[], ClaudeCodeUndone>;
}

/** Claude Code's own settings file: which profile Switchboard merged into it, apply, undo, restore. */
export function useClaudeCode(): ClaudeCode {
  const state = useResource(api.claudeCode, []);
  const after = async <R,>(r: R) => (await state.reload(), r);
  const apply = useAction(async (profile: string) => after(await api.applyClaudeCode(profile)));
  const undo = useAction(async () => after(await api.undoClaudeCode()));
  const restore = useAction(async () => after(await api.restoreClaudeCode()));
  // No event covers an outside edit of that file: look again whenever the page comes back.
  useLiveReload(['profiles'], () => void state.reload(), 0);
  return { state, apply, undo, restore };
}

export function ClaudeCodePanel(props: { cc: ClaudeCode }) {
  const { state, apply, undo, restore } = props.cc;
  const [confirming, setConfirming] = useState<Confirming>(null);
  const s = state.data;
  const busy = apply.busy || undo.busy || restore.busy;
  const clearResults = () => (apply.clear(), undo.clear(), restore.clear());
  return (
    <section class="panel" aria-labelledby="claude-code-title">
      <header class="panel-head">
        <h2 id="claude-code-title">Claude Code</h2>
        <div class="actions">
          {s?.canUndo ? (
            <button type="button" class="btn btn-small" onClick={() => setConfirming('undo')} disabled={busy}>
              {undo.busy ? 'Undoing…' : 'Undo'}
              <span class="sr-only"> the last Claude Code settings change</span>
            </button>
          ) : null}
          {s?.canRestore ? (
            <button type="button" class="btn btn-small" onClick={() => setConfirming('restore')} disabled={busy} data-testid="claude-code-restore">
              {restore.busy ? 'Restoring…' : 'Restore my original settings'}
            </button>
          ) : null}
        </div>
      </header>
      <ErrorNotice error={state.error} context="Claude Code settings" />
      {!s && state.loading ? <Loading what="Claude Code settings" /> : null}
      {s ? <StatusLine state={s} /> : null}
      {s?.applied && s.staleKeys.length > 0 ? (
        <StaleNotice state={s} busy={busy} onReapply={() => (clearResults(), void apply.run(s.applied!.profile))} />
      ) : null}
      {s?.applied && s.editedSince && s.staleKeys.length === 0 ? (
        <Notice tone="warning" title="Edited since">
          <span data-testid="claude-code-edited">
            {s.path} changed after Switchboard applied {s.applied.profile}. Undo would bring back the file as it was before the apply, so those later edits would leave it (the current file is backed up first).
          </span>
        </Notice>
      ) : null}
      <ErrorNotice error={apply.error} context="Use for Claude Code" onDismiss={apply.clear} />
      <ErrorNotice error={undo.error} context="Undo" onDismiss={undo.clear} />
      <ErrorNotice error={restore.error} context="Restore my original settings" onDismiss={restore.clear} />
      {apply.result ? (
        <Notice tone="success" title={`${apply.result.profile} applied to Claude Code`} onDismiss={apply.clear}>
          Set {apply.result.keys.length} env {apply.result.keys.length === 1 ? 'key' : 'keys'} in <code>{apply.result.path}</code>; every other setting was kept.
          {apply.result.backupPath ? (
            <>
              {' '}
              Previous file backed up to <code>{apply.result.backupPath}</code>.
            </>
          ) : null}{' '}
          {apply.result.narrowed ? <>The env now holds a secret, so the file was made readable by you only (mode {apply.result.mode}). </> : null}
          Claude Code reads it when it next starts.
        </Notice>
      ) : null}
      {undo.result ? (
        <Notice tone="success" title="Undone" onDismiss={undo.clear}>
          <code>{undo.result.path}</code> is back as it was before the last apply.
          {undo.result.undoSteps > 0 ? ` Undo can go back ${undo.result.undoSteps} more ${undo.result.undoSteps === 1 ? 'step' : 'steps'}.` : ' That was the file before Switchboard first changed it.'}
        </Notice>
      ) : null}
      {restore.result ? (
        <Notice tone="success" title="Original settings restored" onDismiss={restore.clear}>
          <code>{restore.result.path}</code> is back, byte for byte, as it was before Switchboard first changed it.
          {restore.result.backupPath ? (
            <>
              {' '}
              The file it replaced is in <code>{restore.result.backupPath}</code>.
            </>
          ) : null}
        </Notice>
      ) : null}
      <ClaudeCodeConfirms
        state={s}
        confirming={confirming}
        onCancel={() => setConfirming(null)}
        onConfirm={(what) => {
          setConfirming(null);
          clearResults();
          void (what === 'undo' ? undo.run() : restore.run());
        }}
      />
    </section>
  );
}

function StatusLine(props: { state: ClaudeCodeState }) {
  const s = props.state;
  if (!s.applied) {
    return (
      <p class="status-line" data-testid="claude-code-status">
        <StatusBadge kind="off" label="No profile applied" /> Claude Code uses its own settings in <code>{s.path}</code>
        {s.exists ? '' : ' (not created yet)'}. “Use for Claude Code” on a profile writes its env there, with a backup and an Undo.
      </p>
    );
  }
  const stale = s.staleKeys.length > 0;
  return (
    <p class="status-line" data-testid="claude-code-status">
      <StatusBadge kind={stale || s.editedSince ? 'warn' : 'ok'} label={`${s.applied.profile} applied`} /> to <code>{s.path}</code> on {formatTime(s.applied.appliedAt)}
      {s.applied.keys.length > 0 ? (
        <>
          {' '}
          (<span class="muted">{s.applied.keys.join(', ')}</span>)
        </>
      ) : null}
    </p>
  );
}
