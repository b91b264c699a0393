import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../../api.js';
import type { ProfileCard, ProfileDeleted, ProfileSettings, SettingsUpdateResult } from '../../api-types.js';
import { ConflictDialog } from '../../components/conflict-dialog.js';
import { ErrorNotice, Loading, Notice } from '../../components/notice.js';
import { formatTime } from '../../lib/format.js';
import { useLiveReload } from '../../lib/live.js';
import { useResource } from '../../lib/use-resource.js';
import { EnvTable } from './env-table.js';
import { DeleteProfile } from './delete-profile.js';
import { blankRow, envAsText, envFromRows, REQUIRED_KEYS, rowsFromEnv, validateRows, validateValues, type EnvRow } from './env-rows.js';
import { ModelDatalist, SuggestionsNote, useModelSuggestions } from './model-suggestions.js';
import { OtherKeys } from './other-keys.js';
import { usePresetApply } from './preset-apply.js';
import { PresetsPanel } from './presets-panel.js';
import { RouteThroughProxy } from './route-proxy.js';

const UNSAVED = 'Save or discard your changes first.';

type Loaded = { base: ProfileSettings | null };

async function load(profile: string): Promise<Loaded> {
  try {
    return { base: await api.settings(profile) };
  } catch (err) {
    // A profile that does not exist yet is a new one, not an error.
    if (err instanceof ApiError && err.status === 404) return { base: null };
    throw err;
  }
}

/**
 * `card` is the profile's entry in the list (absent while the list loads or for a new profile);
 * `claudeCodeFollows` is true while this profile is the one applied, unedited, to Claude Code's
 * settings, which the API then rewrites along with the profile.
 */
export function ProfileEditor(props: { profile: string; card?: ProfileCard; claudeCodeFollows: boolean; onSaved: () => void; onDeleted: (r: ProfileDeleted) => void }) {
  const loaded = useResource(() => load(props.profile), [props.profile]);
  const [base, setBase] = useState<ProfileSettings | null>(null);
  const [rows, setRows] = useState<EnvRow[]>([]);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<unknown>(undefined);
  const [saved, setSaved] = useState<SettingsUpdateResult | null>(null);
  const [conflict, setConflict] = useState<{ theirs: ProfileSettings; currentMtime: number } | null>(null);
  const [showErrors, setShowErrors] = useState(false);
  const dirtyNow = useRef(dirty);
  dirtyNow.current = dirty;

  const adopt = (settings: ProfileSettings | null) => {
    setBase(settings);
    setRows(settings ? rowsFromEnv(settings.settings.env ?? {}) : REQUIRED_KEYS.map((k) => blankRow(k)));
    setDirty(false);
    setShowErrors(false);
  };
  useEffect(() => {
    if (loaded.data) adopt(loaded.data.base);
  }, [loaded.data]);

  const problems = validateRows(rows);
  const valueProblems = validateValues(rows);
  const edit = (next: EnvRow[]) => {
    setRows(next);
    setDirty(true);
    setSaved(null);
  };

  const write = async (expectedMtime: number | undefined) => {
    setSaving(true);
    setSaveError(undefined);
    try {
      const settings = { ...(base?.settings ?? {}), env: envFromRows(rows) };
      const result = await api.saveSettings(props.profile, settings, expectedMtime);
      setSaved(result);
      setConflict(null);
      adopt(await api.settings(props.profile));
      props.onSaved();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        const theirs = await api.settings(props.profile).catch(() => null);
        if (theirs) setConflict({ theirs, currentMtime: Number(err.body.currentMtime ?? theirs.mtime) });
        else setSaveError(err);
      } else setSaveError(err);
    } finally {
      setSaving(false);
    }
  };

  const save = (e: Event) => {
    e.preventDefault();
    setShowErrors(true);
    if (problems.size > 0 || valueProblems.size > 0) return;
    void write(base?.mtime);
  };

  // A preset change rewrites the file: take its new mtime unless the env changed on disk too.
  const afterPresetChange = async () => {
    const fresh = await api.settings(props.profile).catch(() => null);
    if (!fresh) return;
    if (!base || JSON.stringify(fresh.settings.env) === JSON.stringify(base.settings.env)) {
      if (dirty) setBase(fresh);
      else adopt(fresh);
    }
    props.onSaved();
  };

  const suggestions = useModelSuggestions();
  const presetApply = usePresetApply({ profile: props.profile, base, adopt, onSaved: props.onSaved, claudeCodeFollows: props.claudeCodeFollows });
  // A write from elsewhere (tray, CLI, another window): show it unless the user is mid-edit,
  // in which case their save meets the conflict dialog as usual.
  useLiveReload(['profiles'], () => void refreshFromDisk(), 0);
  const refreshFromDisk = async () => {
    if (dirty || saving || !base) return;
    const fresh = await api.settings(props.profile).catch(() => null);
    // Typing while the file was read makes the page dirty: their edit wins over the fresh copy.
    if (fresh && fresh.mtime !== base.mtime && !dirtyNow.current) adopt(fresh);
  };

  if (loaded.error) return <ErrorNotice error={loaded.error} context={`Profile ${props.profile}`} />;
  if (!loaded.data) return <Loading what={`profile ${props.profile}`} />;

  return (
    <>
      <section class="panel" aria-labelledby="profile-title">
        <header class="panel-head">
          <h2 id="profile-title">{props.profile}</h2>
          {base ? <span class="muted">Saved {formatTime(base.mtime)}</span> : <span class="tag">new profile</span>}
        </header>
        <div class="actions profile-actions">
          <RouteThroughProxy
            claudeCodeFollows={props.claudeCodeFollows}
            profile={props.profile}
            exists={base !== null}
            usesProxy={props.card?.usesProxy ?? false}
            blocked={dirty ? UNSAVED : null}
            onDone={async () => {
              const fresh = await api.settings(props.profile).catch(() => null);
              if (fresh) adopt(fresh);
              props.onSaved();
            }}
          />
          {dirty ? (
            <small id="route-blocked" class="muted">
              {UNSAVED}
            </small>
          ) : null}
          <span class="spacer" />
          {base ? <DeleteProfile profile={props.profile} isDefault={props.card?.default === true} onDeleted={props.onDeleted} /> : null}
        </div>
        {base ? (
          <p class="muted path" data-testid="profile-path">
            {base.path}
          </p>
        ) : (
          <Notice tone="info" title="New profile">
            This profile has no settings file yet. Saving creates it.
          </Notice>
        )}
        <form onSubmit={save} aria-label={`Environment of ${props.profile}`} noValidate>
          <ModelDatalist suggestions={suggestions} />
          <EnvTable profile={props.profile} rows={rows} onChange={edit} onReveal={setRows} problems={showErrors ? problems : new Map()} valueProblems={valueProblems} exists={base !== null} />
          <div class="actions">
            <button type="button" class="btn" onClick={() => edit([...rows, blankRow()])}>
              <span aria-hidden="true">+ </span>Add variable
            </button>
            <span class="spacer" />
            {dirty ? <span class="muted" role="status">Unsaved changes</span> : null}
            <button type="button" class="btn" disabled={!dirty || saving} onClick={() => adopt(base)}>
              Discard changes
            </button>
            <button type="submit" class="btn btn-primary" disabled={saving}>
              {saving ? 'Saving…' : 'Save'}
            </button>
          </div>
          {showErrors && problems.size + valueProblems.size > 0 ? (
            <Notice tone="error" title="Fix the marked rows">
              {problems.size + valueProblems.size} row(s) need attention.
            </Notice>
          ) : null}
        </form>
        <ErrorNotice error={saveError} context="Save" onDismiss={() => setSaveError(undefined)} />
        {saved ? <SavedNotice result={saved} onDismiss={() => setSaved(null)} /> : null}
      </section>
      {base ? (
        <PresetsPanel
          profile={props.profile}
          onChanged={afterPresetChange}
          onApply={presetApply.start}
          applying={presetApply.busy}
          applyBlocked={dirty ? `${UNSAVED} A preset is applied to the file on disk.` : null}
          applyView={presetApply.view}
          suggestionsNote={<SuggestionsNote suggestions={suggestions} />}
        />
      ) : null}
      {base ? <OtherKeys profile={props.profile} settings={base.settings} /> : null}
      <ConflictDialog
        open={conflict !== null}
        what={`profile “${props.profile}”`}
        mine={envAsText(envFromRows(rows))}
        theirs={conflict ? envAsText(conflict.theirs.settings.env ?? {}) : ''}
        busy={saving}
        onCancel={() => setConflict(null)}
        onReload={() => {
          if (conflict) adopt(conflict.theirs);
          setConflict(null);
        }}
        onOverwrite={() => conflict && void write(conflict.currentMtime)}
      />
    </>
  );
}

function SavedNotice(props: { result: SettingsUpdateResult; onDismiss: () => void }) {
  const r = props.result;
  return (
    <>
      <Notice tone="success" title={r.created ? 'Profile created' : 'Saved'} onDismiss={props.onDismiss}>
        {r.backupPath ? (
          <span data-testid="backup-path">
            Previous version backed up to <code>{r.backupPath}</code>
          </span>
        ) : r.created ? (
          'A new settings file was written.'
        ) : (
          'Nothing changed on disk, so no backup was needed.'
        )}
      </Notice>
      {r.warning ? <Notice tone="warning">{r.warning}</Notice> : null}
    </>
  );
}
