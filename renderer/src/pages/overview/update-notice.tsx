import { api } from '../../api.js';
import { Notice } from '../../components/notice.js';
import { formatTime } from '../../lib/format.js';
import { useResource } from '../../lib/use-resource.js';

export function UpdateNotice() {
  const update = useResource(() => api.updateCheck(), []);
  const u = update.data;
  // A failed background check is not worth an alarm (users complained of exactly that): the
  // Proxy page says "Not checked" and why. An update known from an earlier check is still news,
  // said with its age, since the feed could not confirm it now.
  if (!u?.hasUpdate) return null;
  return (
    <Notice tone="info" title="Proxy update available">
      Version {u.latestVersion} is out; you run {u.currentVersion}.
      {u.error && u.checkedAt !== null ? (
        <span data-testid="update-notice-stale">
          {' '}
          As of the last successful check ({formatTime(u.checkedAt)}); not checked now: {u.error}.
        </span>
      ) : null}
    </Notice>
  );
}
