import type { ClaudeCodeState } from '../../api-types.js';
import { ConfirmDialog } from '../../components/dialog.js';
import { Notice } from '../../components/notice.js';

export type Confirming = 'undo' | 'restore' | null;

/**
 * The applied profile and the file disagree (the profile was edited and the file could not follow,
 * or the user changed a key): said plainly, from what GET /api/claude-code read in both files.
 */
export function StaleNotice(props: { state: ClaudeCodeState; busy: boolean; onReapply: () => void }) {
  const s = props.state;
  const profile = s.applied!.profile;
  return (
    <Notice tone="warning" title="Claude Code still uses the old values">
      <span data-testid="claude-code-stale">
        {s.path} does not hold what {profile} sets now for {s.staleKeys.join(', ')}.
        {s.editedSince ? ' The file was also edited since the apply; re-applying keeps every other setting and key.' : ''}{' '}
      </span>
      <button type="button" class="btn btn-small btn-primary" onClick={props.onReapply} disabled={props.busy}>
        Re-apply {profile}
      </button>
    </Notice>
  );
}

/** The confirmations for Undo (one step back) and Restore my original settings. */
export function ClaudeCodeConfirms(props: { state: ClaudeCodeState | undefined; confirming: Confirming; onCancel: () => void; onConfirm: (what: 'undo' | 'restore') => void }) {
  const s = props.state;
  const path = s?.path ?? 'The file';
  return (
    <>
      <ConfirmDialog
        open={props.confirming === 'undo'}
        title="Undo the Claude Code settings change?"
        message={
          s?.editedSince
            ? `${path} was edited after the apply. Undo restores the file from before the apply, so those edits leave it too; the current file is backed up first.`
            : `${path} goes back to what it was before Switchboard applied ${s?.applied?.profile ?? 'the profile'}. ${s && s.undoSteps > 1 ? `Undo can then go back ${s.undoSteps - 1} more ${s.undoSteps === 2 ? 'step' : 'steps'}.` : ''}`
        }
        confirmLabel="Undo"
        danger={s?.editedSince}
        onCancel={props.onCancel}
        onConfirm={() => props.onConfirm('undo')}
      />
      <ConfirmDialog
        open={props.confirming === 'restore'}
        title="Restore your original Claude Code settings?"
        message={`${path} goes back, byte for byte, to what it was before Switchboard first changed it, and Switchboard forgets every apply since. Whatever the file holds now is backed up first.`}
        confirmLabel="Restore"
        danger
        onCancel={props.onCancel}
        onConfirm={() => props.onConfirm('restore')}
      />
    </>
  );
}
