import { api } from '../api.js';
import type { ProxyRestartResult } from '../api-types.js';
import { useAction } from '../lib/use-action.js';
import { ErrorNotice } from './notice.js';
import { UpdatedProfiles } from './updated-profiles.js';

/**
 * "Restart proxy now" where a change says the proxy must restart (tokens, proxy YAML): one call
 * to POST /api/proxy/proxy-restart (issue 28.7), then what happened, in place of the button.
 */
export function RestartProxyButton(props: { onRestarted?: (r: ProxyRestartResult) => void }) {
  const restart = useAction(async () => {
    const r = await api.proxyRestart();
    props.onRestarted?.(r);
    return r;
  });
  const r = restart.result;
  if (r) {
    return (
      <p class="tight" data-testid="restart-result" role="status">
        <strong>{r.restarted ? `Proxy restarted on port ${r.port}: the change is in effect.` : `The proxy was not running; started it on port ${r.port} with the change.`}</strong>
        <UpdatedProfiles names={r.updatedProfiles.length > 0 ? r.updatedProfiles : undefined} what="API key" />
      </p>
    );
  }
  return (
    <>
      {' '}
      <button type="button" class="btn btn-small" onClick={() => void restart.run()} disabled={restart.busy}>
        {restart.busy ? 'Restarting…' : 'Restart proxy now'}
      </button>
      <ErrorNotice error={restart.error} context="Restart" onDismiss={restart.clear} />
    </>
  );
}
