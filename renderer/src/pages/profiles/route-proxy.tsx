import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import type { RoutedThroughProxy } from '../../api-types.js';
import { ConfirmDialog } from '../../components/dialog.js';
import { ErrorNotice, Notice } from '../../components/notice.js';
import { href } from '../../lib/router.js';
import { useAction } from '../../lib/use-action.js';

/** The profile `Connect a new profile through the proxy` creates (or re-points, when it exists). */
export const PROXY_PROFILE = 'proxy';

/**
 * "Route through the proxy": the profile's base URL becomes the local proxy's and its token the
 * proxy API key; every other key stays. Asked first, since it replaces two values (with a backup).
 */
export function RouteThroughProxy(props: {
  profile: string;
  exists: boolean;
  usesProxy: boolean;
  blocked: string | null;
  claudeCodeFollows: boolean;
  onDone: (r: RoutedThroughProxy) => void;
}) {
  const [confirm, setConfirm] = useState(false);
  const route = useAction(api.routeThroughProxy);
  // Read when the route was asked for: the answer refreshes the Claude Code state meanwhile.
  const [ccFollowed, setCcFollowed] = useState(false);
  return (
    <>
      <button
        type="button"
        class="btn"
        onClick={() => setConfirm(true)}
        disabled={route.busy || props.blocked !== null}
        title={props.blocked ?? undefined}
        aria-describedby={props.blocked ? 'route-blocked' : undefined}
      >
        <span aria-hidden="true">⇄ </span>
        {route.busy ? 'Routing…' : props.usesProxy ? 'Route through the proxy again' : 'Route through the proxy'}
      </button>
      <ErrorNotice error={route.error} context="Route through the proxy" onDismiss={route.clear} />
      {route.result ? <RoutedNotice result={route.result} onDismiss={route.clear} claudeCodeFollowed={ccFollowed} /> : null}
      <ConfirmDialog
        open={confirm}
        title={`Route ${props.profile} through the proxy?`}
        message={
          <p>
            <code>PROVIDER_BASE_URL</code> becomes the local proxy's address and <code>PROVIDER_AUTH_TOKEN</code> its API key
            {props.exists ? '; the previous file is backed up and every other key is kept.' : '; the profile is created.'}
          </p>
        }
        confirmLabel="Route through the proxy"
        onCancel={() => setConfirm(false)}
        onConfirm={async () => {
          setConfirm(false);
          setCcFollowed(props.claudeCodeFollows);
          const r = await route.run(props.profile);
          if (r) props.onDone(r);
        }}
      />
    </>
  );
}

/** The page-level shortcut: a profile named `proxy` that talks to the local proxy. */
export function ConnectThroughProxy(props: { exists: boolean; onDone: () => void }) {
  const [confirm, setConfirm] = useState(false);
  const route = useAction(api.routeThroughProxy);
  return (
    <div class="connect-proxy">
      <button type="button" class="btn" onClick={() => setConfirm(true)} disabled={route.busy}>
        <span aria-hidden="true">⇄ </span>
        {route.busy ? 'Connecting…' : 'Connect a new profile through the proxy'}
      </button>
      <ErrorNotice error={route.error} context="Connect through the proxy" onDismiss={route.clear} />
      {route.result ? <RoutedNotice result={route.result} onDismiss={route.clear} withLink /> : null}
      <ConfirmDialog
        open={confirm}
        title="Connect a profile through the proxy?"
        message={
          props.exists ? (
            <p>
              Profile <code>{PROXY_PROFILE}</code> exists: its base URL and token are set to the local proxy's again (previous file backed up, other keys kept).
            </p>
          ) : (
            <p>
              Creates profile <code>{PROXY_PROFILE}</code> with the local proxy's address and API key. Add a model afterwards, or apply a preset.
            </p>
          )
        }
        confirmLabel={props.exists ? 'Update proxy' : 'Create proxy'}
        onCancel={() => setConfirm(false)}
        onConfirm={async () => {
          setConfirm(false);
          if (await route.run(PROXY_PROFILE)) props.onDone();
        }}
      />
    </div>
  );
}

function RoutedNotice(props: { result: RoutedThroughProxy; onDismiss: () => void; withLink?: boolean; claudeCodeFollowed?: boolean }) {
  const r = props.result;
  return (
    <Notice tone="success" title={r.created ? `Profile ${r.profile} created` : `${r.profile} routed through the proxy`} onDismiss={props.onDismiss}>
      <span data-testid="routed-answer">
        {r.profile} now sends requests to <code>{r.baseUrl}</code> with the proxy's API key; they get through while the proxy runs.
      </span>
      {props.claudeCodeFollowed ? ' Claude Code uses this profile, so its settings.json was updated too.' : null}
      {props.withLink ? (
        <>
          {' '}
          <a href={href('profiles', r.profile)}>Open {r.profile}</a>
        </>
      ) : null}
    </Notice>
  );
}
