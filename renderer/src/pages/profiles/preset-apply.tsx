import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api.js';
import type { PresetApplied, ProfileSettings } from '../../api-types.js';
import { ConflictDialog } from '../../components/conflict-dialog.js';
import { ErrorNotice, Notice } from '../../components/notice.js';
import { envAsText } from './env-rows.js';
import { envChanges, type EnvChange } from './switching.js';

export interface AppliedPreset {
  result: PresetApplied;
  changes: EnvChange[];
  claudeCodeFollowed: boolean;
}

interface Conflict {
  name: string;
  theirs: ProfileSettings;
  currentMtime: number;
}

/**
 * Applies a preset with the mtime the editor loaded. A 409 (the file changed on disk since)
 * opens the conflict dialog: reload the disk version, or apply the preset on top of it.
 * After a success the editor adopts the new file and the notice lists what changed.
 */
export function usePresetApply(props: {
  profile: string;
  base: ProfileSettings | null;
  adopt: (s: ProfileSettings) => void;
  onSaved: () => void;
  claudeCodeFollows: boolean;
}) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const [applied, setApplied] = useState<AppliedPreset | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);

  const apply = async (name: string, expectedMtime: number | undefined, before: Record<string, unknown>) => {
    if (busy) return;
    setBusy(name);
    setError(undefined);
    setApplied(null);
    try {
      const result = await api.applyPreset(props.profile, name, expectedMtime);
      setConflict(null);
      const fresh = await api.settings(props.profile);
      props.adopt(fresh);
      setApplied({ result, changes: envChanges(before, fresh.settings.env ?? {}), claudeCodeFollowed: props.claudeCodeFollows });
      props.onSaved();
    } catch (err) {
      const theirs = err instanceof ApiError && err.status === 409 ? await api.settings(props.profile).catch(() => null) : null;
      if (theirs) setConflict({ name, theirs, currentMtime: Number((err as ApiError).body.currentMtime ?? theirs.mtime) });
      else setError(err);
    } finally {
      setBusy(null);
    }
  };

  const start = (name: string) => void apply(name, props.base?.mtime, props.base?.settings.env ?? {});

  const view = (
    <>
      <ErrorNotice error={error} context="Apply preset" onDismiss={() => setError(undefined)} />
      {applied ? <AppliedNotice applied={applied} onDismiss={() => setApplied(null)} /> : null}
      <ConflictDialog
        open={conflict !== null}
        what={`profile “${props.profile}”`}
        mine={envAsText(props.base?.settings.env ?? {})}
        theirs={conflict ? envAsText(conflict.theirs.settings.env ?? {}) : ''}
        busy={busy !== null}
        labels={{
          intro: `The file of {what} changed after you opened it, so preset “${conflict?.name ?? ''}” was not applied.`,
          mine: 'Version you opened',
          yours: 'the version you opened',
          reload: 'Reload from disk (do not apply)',
          overwrite: 'Apply to the version on disk',
          cancel: 'Cancel',
        }}
        onCancel={() => setConflict(null)}
        onReload={() => {
          if (conflict) props.adopt(conflict.theirs);
          setConflict(null);
        }}
        onOverwrite={() => conflict && void apply(conflict.name, conflict.currentMtime, conflict.theirs.settings.env ?? {})}
      />
    </>
  );
  return { start, busy, view };
}

function AppliedNotice(props: { applied: AppliedPreset; onDismiss: () => void }) {
  const { result, changes, claudeCodeFollowed } = props.applied;
  return (
    <Notice tone="success" title={`Preset “${result.applied}” applied`} onDismiss={props.onDismiss}>
      {changes.length === 0 ? (
        <p class="tight">The profile already used these models; nothing changed.</p>
      ) : (
        <ul class="change-list" data-testid="preset-changes">
          {changes.map((c) => (
            <li key={c.key}>
              <code>{c.key}</code>{' '}
              {c.before === undefined ? (
                <>
                  added: <code>{c.after}</code>
                </>
              ) : c.after === undefined ? (
                <>
                  removed (was <code>{c.before}</code>)
                </>
              ) : (
                <>
                  <code>{c.before}</code> → <code>{c.after}</code>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {result.backupPath ? (
        <p class="tight">
          Previous version backed up to <code>{result.backupPath}</code>
        </p>
      ) : null}
      {claudeCodeFollowed ? <p class="tight">Claude Code uses this profile, so its settings.json was updated too.</p> : null}
    </Notice>
  );
}
