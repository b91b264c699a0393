import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api.js';
import type { ProfileDeleted } from '../../api-types.js';
import { ConfirmDialog } from '../../components/dialog.js';
import { ErrorNotice, Notice } from '../../components/notice.js';
import { useAction } from '../../lib/use-action.js';

/**
 * "Delete profile…": asks first, naming the profile (and saying when it is the default), then
 * the API moves the file into backups/. The caller shows the result, since the editor goes away.
 */
export function DeleteProfile(props: { profile: string; isDefault: boolean; onDeleted: (r: ProfileDeleted) => void }) {
  const [asking, setAsking] = useState(false);
  const remove = useAction(api.deleteProfile);
  const confirm = async () => {
    setAsking(false);
    const r = await remove.run(props.profile);
    if (r) props.onDeleted(r);
  };
  return (
    <>
      <button type="button" class="btn btn-danger" onClick={() => !remove.busy && setAsking(true)}>
        {remove.busy ? 'Deleting…' : 'Delete profile…'}
      </button>
      <ConfirmDialog
        open={asking}
        title={`Delete profile “${props.profile}”?`}
        message={
          <>
            <p>
              The settings file of <strong>{props.profile}</strong> is moved to <code>backups/</code>; copy it back to restore the profile.
            </p>
            {props.isDefault ? <p>It is the default profile: no profile will be the default afterwards.</p> : null}
          </>
        }
        confirmLabel={`Delete ${props.profile}`}
        danger
        onConfirm={() => void confirm()}
        onCancel={() => setAsking(false)}
      />
      <ErrorNotice error={remove.error} context="Delete profile" onDismiss={remove.clear} />
    </>
  );
}

/** Said on the Profiles page after a delete: where the file went. Takes focus, as the editor is gone. */
export function DeletedNotice(props: { result: ProfileDeleted; onDismiss: () => void }) {
  const r = props.result;
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), [r]);
  return (
    <div tabIndex={-1} data-testid="profile-deleted" ref={box}>
      <Notice tone="success" title={`Deleted ${r.profile}`} onDismiss={props.onDismiss}>
        Its file is kept at <code>{r.backupPath}</code>.{r.defaultCleared ? ' It was the default profile; no profile is the default now.' : ''}
      </Notice>
    </div>
  );
}
