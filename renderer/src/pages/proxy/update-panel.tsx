import { api } from '../../api.js';
import { ErrorNotice, Loading } from '../../components/notice.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useResource } from '../../lib/use-resource.js';

export function UpdatePanel() {
  const update = useResource(api.updateCheck, []);
  const u = update.data;
  return (
    <section class="panel" aria-labelledby="update-title">
      <header class="panel-head">
        <h2 id="update-title">Updates</h2>
        {u ? u.hasUpdate ? <StatusBadge kind="warn" label="Update available" /> : <StatusBadge kind="ok" label="Up to date" /> : null}
      </header>
      <ErrorNotice error={update.error} />
      {!u && update.loading ? <Loading /> : null}
      {u ? (
        <dl class="facts">
          <dt>Installed</dt>
          <dd>{u.currentVersion}</dd>
          <dt>Latest</dt>
          <dd>{u.latestVersion}</dd>
          <dt>Checked</dt>
          <dd>{u.fromCache ? 'cached answer (under an hour old, or offline)' : 'just now'}</dd>
        </dl>
      ) : null}
      <div class="actions">
        <button type="button" class="btn" onClick={() => void update.reload()} disabled={update.loading}>
          Check again
        </button>
      </div>
    </section>
  );
}
