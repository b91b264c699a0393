import { useRef } from 'preact/hooks';
import { api } from '../../api.js';
import type { UpdateCheck } from '../../api-types.js';
import { ErrorNotice, Loading } from '../../components/notice.js';
import { StatusBadge } from '../../components/status-badge.js';
import { formatDuration, formatTime } from '../../lib/format.js';
import { useResource } from '../../lib/use-resource.js';

/**
 * The proxy's update check as it really went (decisions §4, revised): "Up to date" only when the
 * feed answered; otherwise "Not checked", why, and when the feed last answered.
 */
export function UpdatePanel() {
  const force = useRef(false);
  const update = useResource(() => {
    const forced = force.current;
    force.current = false;
    return api.updateCheck(forced);
  }, []);
  const u = update.data;
  return (
    <section class="panel" aria-labelledby="update-title" data-testid="update-panel">
      <header class="panel-head">
        <h2 id="update-title">Updates</h2>
        {u ? <UpdateBadge u={u} /> : null}
      </header>
      <ErrorNotice error={update.error} />
      {!u && update.loading ? <Loading /> : null}
      {u ? (
        <dl class="facts">
          <dt>Installed</dt>
          <dd>{u.currentVersion}</dd>
          <dt>Latest</dt>
          <dd>{u.checkedAt === null ? 'unknown' : u.latestVersion}</dd>
          <dt>Checked</dt>
          <dd data-testid="update-checked">{checkedLine(u, Date.now())}</dd>
          {u.error ? (
            <>
              <dt>Reason</dt>
              <dd data-testid="update-error">{u.error}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      <div class="actions">
        <button
          type="button"
          class="btn"
          onClick={() => {
            force.current = true;
            void update.reload();
          }}
          disabled={update.loading}
        >
          {update.loading && u ? 'Checking…' : 'Check again'}
        </button>
      </div>
    </section>
  );
}

function UpdateBadge(props: { u: UpdateCheck }) {
  const { u } = props;
  if (u.hasUpdate) return <StatusBadge kind="warn" label="Update available" />;
  if (u.error) return <StatusBadge kind="off" label="Not checked" />;
  return <StatusBadge kind="ok" label="Up to date" />;
}

/** When the feed last answered, and whether this answer came from it or from the cache. */
export function checkedLine(u: UpdateCheck, now: number): string {
  if (u.checkedAt === null) return 'Never: no feed answer yet';
  const when = `${agoText(now - u.checkedAt)} (${formatTime(u.checkedAt)})`;
  if (u.error) return `Not checked now; last successful check ${when}`;
  return u.fromCache ? `${when}, cached answer` : `${when}`;
}

function agoText(ms: number): string {
  return ms < 60_000 ? 'just now' : `${formatDuration(ms).split(' ')[0]} ago`;
}
