import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api.js';
import { Empty, ErrorNotice } from '../../components/notice.js';
import { PageHeader } from '../../components/page-header.js';
import { useLiveReload } from '../../lib/live.js';
import { href } from '../../lib/router.js';
import { useAction } from '../../lib/use-action.js';
import { useResource } from '../../lib/use-resource.js';
import type { ProfileDeleted } from '../../api-types.js';
import { ClaudeCodePanel, useClaudeCode } from './claude-code.js';
import { DeletedNotice } from './delete-profile.js';
import { ProfileCardList } from './profile-cards.js';
import { ProfileEditor } from './profile-editor.js';
import { ConnectThroughProxy, PROXY_PROFILE } from './route-proxy.js';

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function ProfilesPage(props: { selected?: string }) {
  const list = useResource(api.profiles, []);
  // The tray, the CLI and other windows change the default and the files too.
  useLiveReload(['profiles'], () => void list.reload(), 10_000);
  // The moved ★ marker says it to the eye; `announced` says it to a screen reader.
  const [announced, setAnnounced] = useState('');
  const after = async <R,>(r: R, words: string) => (await list.reload(), setAnnounced(words), r);
  const makeDefault = useAction(async (name: string) => {
    const r = await api.setDefaultProfile(name);
    return after(r, `${r.default} is now the default profile.`);
  });
  const clearDefault = useAction(async () => after(await api.resetDefaultAccount(), 'No profile is the default now.'));
  const cc = useClaudeCode();
  const [deleted, setDeleted] = useState<ProfileDeleted | null>(null);
  const editor = useRef<HTMLDivElement>(null);
  const previous = useRef(props.selected);

  useEffect(() => {
    // A card chosen from the list: bring its editor into view and give it focus.
    if (props.selected && previous.current !== props.selected) {
      editor.current?.scrollIntoView({ block: 'start' });
      editor.current?.focus({ preventScroll: true });
    }
    previous.current = props.selected;
  }, [props.selected]);

  const names = list.data?.profiles.map((p) => p.name) ?? [];
  const ccState = cc.state.data;
  const claudeCodeFollows = Boolean(props.selected && ccState?.applied?.profile === props.selected && ccState.staleKeys.length === 0);
  return (
    <>
      <PageHeader title="Profiles" subtitle="Which provider and model each profile uses; the default one is what the tray and switchboard run use.">
        <ConnectThroughProxy exists={names.includes(PROXY_PROFILE)} onDone={() => void list.reload()} />
      </PageHeader>
      <ClaudeCodePanel cc={cc} />
      <section class="panel" aria-labelledby="profiles-list-title">
        <header class="panel-head">
          <h2 id="profiles-list-title">Profiles</h2>
          {list.data ? (
            <span class="muted">
              {list.data.profiles.length} {list.data.profiles.length === 1 ? 'profile' : 'profiles'}
            </span>
          ) : null}
        </header>
        <ProfileCardList list={list} selected={props.selected} makeDefault={makeDefault} clearDefault={clearDefault} cc={cc} />
        <p class="sr-only" role="status">
          {announced}
        </p>
        <ErrorNotice error={makeDefault.error} context="Make default" onDismiss={makeDefault.clear} />
        <ErrorNotice error={clearDefault.error} context="Clear default" onDismiss={clearDefault.clear} />
        {deleted ? <DeletedNotice result={deleted} onDismiss={() => setDeleted(null)} /> : null}
        <NewProfileForm />
      </section>
      <div class="split-main" ref={editor} tabIndex={-1} aria-label="Profile editor">
        {props.selected ? (
          <ProfileEditor key={props.selected} profile={props.selected} card={list.data?.profiles.find((p) => p.name === props.selected)}
            claudeCodeFollows={claudeCodeFollows}
            onSaved={list.reload}
            onDeleted={(r) => {
              setDeleted(r);
              void list.reload();
              location.hash = href('profiles');
            }}
          />
        ) : (
          <Empty>Choose a profile above to edit it, or create one.</Empty>
        )}
      </div>
    </>
  );
}

function NewProfileForm() {
  const [newName, setNewName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
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
  );
}
