import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { ConfirmDialog } from '../../components/dialog.js';
import { Empty, ErrorNotice, Loading, Notice } from '../../components/notice.js';
import { PageHeader } from '../../components/page-header.js';
import { formatTime } from '../../lib/format.js';
import { href } from '../../lib/router.js';
import { useAction } from '../../lib/use-action.js';
import { useResource } from '../../lib/use-resource.js';
import { ProfileEditor } from './profile-editor.js';

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function ProfilesPage(props: { selected?: string }) {
  const list = useResource(api.profiles, []);
  const [newName, setNewName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [confirmReset, setConfirmReset] = useState(false);
  const reset = useAction(api.resetDefaultAccount);

  const create = (e: Event) => {
    e.preventDefault();
    const name = newName.trim();
    if (!NAME_RE.test(name) || name === 'auth') {
      setNameError('1–64 letters, digits, dot, dash or underscore, starting with a letter or digit; not “auth”.');
      return;
    }
    setNameError(null);
    setNewName('');
    location.hash = href('profiles', name);
  };

  return (
    <>
      <PageHeader title="Profiles" subtitle="Environment settings per profile, saved with a backup and conflict check." />
      <div class="split">
        <aside class="panel list-panel" aria-labelledby="profiles-list-title">
          <h2 id="profiles-list-title">Profiles</h2>
          <ErrorNotice error={list.error} />
          {list.loading && !list.data ? <Loading /> : null}
          {list.data && list.data.profiles.length === 0 ? <Empty>No profiles yet.</Empty> : null}
          <ul class="link-list">
            {list.data?.profiles.map((p) => (
              <li key={p.name}>
                <a href={href('profiles', p.name)} aria-current={p.name === props.selected ? 'page' : undefined}>
                  <span>{p.name}</span>
                  <small class="muted">{formatTime(p.mtime)}</small>
                </a>
              </li>
            ))}
          </ul>
          <form class="inline-form" onSubmit={create} aria-label="New profile">
            <div class={nameError ? 'field field-invalid' : 'field'}>
              <label for="new-profile">New profile name</label>
              <input
                id="new-profile"
                value={newName}
                onInput={(e) => setNewName(e.currentTarget.value)}
                aria-invalid={nameError ? true : undefined}
                aria-describedby={nameError ? 'new-profile-error' : undefined}
                autocomplete="off"
              />
              {nameError ? (
                <small id="new-profile-error" class="field-error">
                  <span aria-hidden="true">✕ </span>
                  {nameError}
                </small>
              ) : null}
            </div>
            <button type="submit" class="btn">
              Create
            </button>
          </form>
          <hr />
          <button type="button" class="btn btn-small" onClick={() => setConfirmReset(true)}>
            Reset default account
          </button>
          <ErrorNotice error={reset.error} onDismiss={reset.clear} />
          {reset.result ? <Notice tone="success" onDismiss={reset.clear}>{reset.result.message}</Notice> : null}
        </aside>
        <div class="split-main">
          {props.selected ? (
            <ProfileEditor key={props.selected} profile={props.selected} onSaved={list.reload} />
          ) : (
            <Empty>Choose a profile on the left, or create one.</Empty>
          )}
        </div>
      </div>
      <ConfirmDialog
        open={confirmReset}
        title="Reset default account?"
        message="Removes the default profile choice from config.yaml. Profiles themselves are kept."
        confirmLabel="Reset"
        onCancel={() => setConfirmReset(false)}
        onConfirm={() => {
          setConfirmReset(false);
          void reset.run();
        }}
      />
    </>
  );
}
