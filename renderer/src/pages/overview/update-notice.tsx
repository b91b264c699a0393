import { api } from '../../api.js';
import { Notice } from '../../components/notice.js';
import { useResource } from '../../lib/use-resource.js';

export function UpdateNotice() {
  const update = useResource(api.updateCheck, []);
  // A failed background check is not worth an alarm (users complained of exactly that).
  if (!update.data?.hasUpdate) return null;
  return (
    <Notice tone="info" title="Proxy update available">
      Version {update.data.latestVersion} is out; you run {update.data.currentVersion}.
    </Notice>
  );
}
