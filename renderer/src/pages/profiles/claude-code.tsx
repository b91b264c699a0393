import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import type { ClaudeCodeApplied, ClaudeCodeState, ClaudeCodeUndone } from '../../api-types.js';
import { ConfirmDialog } from '../../components/dialog.js';
import { ErrorNotice, Loading, Notice } from '../../components/notice.js';
import { StatusBadge } from '../../components/status-badge.js';
import { formatTime } from '../../lib/format.js';
import { useLiveReload } from '../../lib/live.js';
import { useAction, type Action } from '../../lib/use-action.js';
import { useResource, type Resource } from '../../lib/use-resource.js';

export interface ClaudeCode {
  state: Resource<ClaudeCodeState>;
  apply: Action<[string], ClaudeCodeApplied>;
  undo: Action<[], ClaudeCodeUndone>;
}

/** Claude Code's own settings file: which profile Switchboard merged into it, apply and undo. */
export function useClaudeCode(): ClaudeCode {
  const state = useResource(api.claudeCode, []);
  const after = async <R,>(r: R) => (await state.reload(), r);
  const apply = useAction(async (profile: string) => after(await api.applyClaudeCode(profile)));
  const undo = useAction(async () => after(await api.undoClaudeCode()));
  // No event covers an outside edit of that file: look again whenever the page comes back.
  useLiveReload(['profiles'], () => void state.reload(), 0);
  return { state, apply, undo };
}



export function ClaudeCodePanel(props: { cc: ClaudeCode }) {
  const { state, apply, undo } = props.cc;
  const [confirmUndo, setConfirmUndo] = useState(false);
  const s = state.data;
  return (
    <section class="panel" aria-labelledby="claude-code-title">
      <header class="panel-head">
        <h2 id="claude-code-title">Claude Code</h2>
        {s?.canUndo ? (
          <button type="button" class="btn btn-small" onClick={() => setConfirmUndo(true)} disabled={undo.busy}>
            {undo.busy ? 'Undoing…' : 'Undo'}
            <span class="sr-only"> the last Claude Code settings change</span>
          </button>
        ) : null}
      </header>
      <ErrorNotice error={state.error} context="Claude Code settings" />
      {!s && state.loading ? <Loading what="Claude Code settings" /> : null}
      {s ? <StatusLine state={s} /> : null}
      {s?.applied && s.editedSince ? (
        <Notice tone="warning" title="Edited since">
          <span data-testid="claude-code-edited">
            {s.path} changed after Switchboard applied {s.applied.profile}. Undo would bring back the file as it was before the apply, so those later edits would leave it (the API backs the current file up first).
          </span>
        </Notice>
      ) : null}
      <ErrorNotice error={apply.error} context="Use for Claude Code" onDismiss={apply.clear} />
      <ErrorNotice error={undo.error} context="Undo" onDismiss={undo.clear} />
      {apply.result ? (
        <Notice tone="success" title={`${apply.result.profile} applied to Claude Code`} onDismiss={apply.clear}>
          Set {apply.result.keys.length} env {apply.result.keys.length === 1 ? 'key' : 'keys'} in <code>{apply.result.path}</code>; every other setting was kept.
          {apply.result.backupPath ? (
            <>
              {' '}
              Previous file backed up to <code>{apply.result.backupPath}</code>.
            </>
          ) : null}{' '}
          Claude Code reads it when it next starts.
        </Notice>
      ) : null}
      {undo.result ? (
        <Notice tone="success" title="Undone" onDismiss={undo.clear}>
          <code>{undo.result.path}</code> is back as it was before the last apply.
        </Notice>
      ) : null}
      <ConfirmDialog
        open={confirmUndo}
        title="Undo the Claude Code settings change?"
        message={
          s?.editedSince
            ? `${s.path} was edited after the apply. Undo restores the file from before the apply, so those edits leave it too; the current file is backed up first.`
            : `${s?.path ?? 'The file'} goes back to exactly what it was before Switchboard applied ${s?.applied?.profile ?? 'the profile'}.`
        }
        confirmLabel="Undo"
        danger={s?.editedSince}
        onCancel={() => setConfirmUndo(false)}
        onConfirm={() => {
          setConfirmUndo(false);
          apply.clear();
          void undo.run();
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
  return (
    <p class="status-line" data-testid="claude-code-status">
      <StatusBadge kind={s.editedSince ? 'warn' : 'ok'} label={`${s.applied.profile} applied`} /> to <code>{s.path}</code> on {formatTime(s.applied.appliedAt)}
      {s.applied.keys.length > 0 ? (
        <>
          {' '}
          (<span class="muted">{s.applied.keys.join(', ')}</span>)
        </>
      ) : null}
    </p>
  );
}
