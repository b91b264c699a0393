import { api } from '../../api.js';
import { Empty, ErrorNotice, Loading } from '../../components/notice.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useLiveReload } from '../../lib/live.js';
import { href } from '../../lib/router.js';
import { useResource } from '../../lib/use-resource.js';

/** What the issue-18 list adds per profile; optional here so an older server still reads. */
interface ProfileFacts {
  name: string;
  baseUrl?: string | null;
  model?: string | null;
  usesProxy?: boolean;
}

/** The default profile (what the tray and `switchboard run` use) with a link to it. */
export function DefaultProfileCard() {
  const list = useResource(api.profiles, []);
  useLiveReload(['profiles', 'config-changed'], () => void list.reload(), 0);
  const data = list.data as { profiles: ProfileFacts[]; default?: string | null } | undefined;
  const name = data?.default ?? null;
  const profile = name ? data?.profiles.find((p) => p.name === name) : undefined;
  return (
    <section class="panel" aria-labelledby="ov-profile" data-testid="overview-profile">
      <header class="panel-head">
        <h2 id="ov-profile">Default profile</h2>
        <a href={href('profiles')}>Profiles</a>
      </header>
      {!data && list.loading ? <Loading what="profiles" /> : null}
      <ErrorNotice error={list.error} context="Profiles" />
      {data && !name ? (
        <Empty>
          No default profile. {data.profiles.length ? <>Choose one on the <a href={href('profiles')}>Profiles page</a>.</> : <>Create one on the <a href={href('profiles')}>Profiles page</a>.</>}
        </Empty>
      ) : null}
      {name ? (
        <dl class="facts">
          <dt>Name</dt>
          <dd>
            <a href={href('profiles', name)} data-testid="ov-profile-link">
              {name}
            </a>{' '}
            {profile?.usesProxy ? <StatusBadge kind="ok" label="via proxy" /> : null}
            {!profile ? <StatusBadge kind="warn" label="file missing" /> : null}
          </dd>
          <dt>Endpoint</dt>
          <dd>{profile?.baseUrl ? <code>{profile.baseUrl}</code> : <span class="muted">not set</span>}</dd>
          <dt>Model</dt>
          <dd>{profile?.model ? <code>{profile.model}</code> : <span class="muted">not set</span>}</dd>
        </dl>
      ) : null}
    </section>
  );
}
