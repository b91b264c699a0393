import { otherKeys } from './switching.js';

/**
 * Keys of the settings file outside `env` and `presets` (e.g. `permissions`), read-only and as
 * the API sends them (secrets masked at any depth). Saving the env keeps them as they are.
 */
export function OtherKeys(props: { profile: string; settings: Record<string, unknown> }) {
  const rest = otherKeys(props.settings);
  return (
    <section class="panel" aria-labelledby="other-keys-title">
      <header class="panel-head">
        <h2 id="other-keys-title">Other settings</h2>
        <span class="tag">read-only</span>
      </header>
      {rest ? (
        <>
          <p class="muted">Keys of this file outside <code>env</code> and the presets, kept as they are when you save. Edit them in the file itself.</p>
          <pre class="json-view" tabIndex={0} aria-label={`Other settings of ${props.profile} (JSON)`} data-testid="other-keys">
            {JSON.stringify(rest, null, 2)}
          </pre>
        </>
      ) : (
        <p class="empty muted">
          No keys besides <code>env</code> and the presets.
        </p>
      )}
    </section>
  );
}
