import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import type { ProxyRestartResult, Tokens, TokenWriteResult } from '../../api-types.js';
import { CopyButton } from '../../components/copy-button.js';
import { ConfirmDialog } from '../../components/dialog.js';
import { Field } from '../../components/field.js';
import { ErrorNotice, Loading, Notice } from '../../components/notice.js';
import { RestartProxyButton } from '../../components/restart-proxy-button.js';
import { SecretInput } from '../../components/secret-input.js';
import { UpdatedProfiles } from '../../components/updated-profiles.js';
import { useAction } from '../../lib/use-action.js';
import { useResource } from '../../lib/use-resource.js';

const TOKEN_RE = /^[\x21-\x7e]{8,256}$/;

/** The proxy's API key and management secret: masked, revealed on demand, set, regenerated, reset. */
export function TokensPanel() {
  const tokens = useResource(api.tokens, []);
  const [raw, setRaw] = useState<Tokens | null>(null);
  const reveal = useAction(api.tokensRaw);
  const [confirm, setConfirm] = useState<'regenerate' | 'regenerate-key' | 'reset' | null>(null);
  const [last, setLast] = useState<TokenWriteResult | null>(null);
  const write = useAction(async (op: () => Promise<TokenWriteResult>) => op());

  const apply = async (op: () => Promise<TokenWriteResult>) => {
    setLast(null);
    const r = await write.run(op);
    if (r) {
      setLast(r);
      setRaw(null);
      await tokens.reload();
    }
  };

  const shown = raw ?? tokens.data;
  return (
    <>
      {last ? <RestartBanner result={last} onDone={() => setLast(null)} /> : null}
      <section class="panel" aria-labelledby="tokens-title">
        <header class="panel-head">
          <h2 id="tokens-title">Proxy tokens</h2>
          <button
            type="button"
            class="btn btn-small"
            aria-pressed={raw !== null}
            onClick={async () => (raw ? setRaw(null) : setRaw((await reveal.run()) ?? null))}
          >
            {raw ? 'Hide values' : 'Reveal values'}
          </button>
        </header>
        <p class="muted">Clients send the API key to the proxy; the management secret guards its management routes. Neither is needed for this dashboard.</p>
        <ErrorNotice error={tokens.error ?? reveal.error} />
        {!shown && tokens.loading ? <Loading what="tokens" /> : null}
        {shown ? (
          <dl class="facts facts-wide">
            <dt>API key</dt>
            <dd>
              <code data-testid="api-key-value">{shown.apiKey.value}</code> <span class="tag">{shown.apiKey.isCustom ? 'custom' : 'default'}</span>{' '}
              {/* The raw key is read at the moment of copying, never kept on the page. */}
              <CopyButton text={raw ? raw.apiKey.value : async () => (await api.tokensRaw()).apiKey.value} label="API key" />
            </dd>
            <dt>Management secret</dt>
            <dd>
              <code data-testid="secret-value">{shown.managementSecret.value}</code>{' '}
              <span class="tag">{shown.managementSecret.isCustom ? 'custom' : 'default'}</span>{' '}
              {raw ? <CopyButton text={raw.managementSecret.value} label="management secret" /> : null}
            </dd>
          </dl>
        ) : null}
        <div class="actions">
          <button type="button" class="btn" onClick={() => setConfirm('regenerate-key')} disabled={write.busy}>
            Regenerate API key
          </button>
          <button type="button" class="btn" onClick={() => setConfirm('regenerate')} disabled={write.busy}>
            Regenerate secret
          </button>
          <button type="button" class="btn btn-danger" onClick={() => setConfirm('reset')} disabled={write.busy}>
            Reset both to defaults
          </button>
        </div>
        <ErrorNotice error={write.error} onDismiss={write.clear} />
      </section>
      <SetTokensForm busy={write.busy} onSubmit={(body) => apply(() => api.setTokens(body))} />
      <ConfirmDialog
        open={confirm === 'regenerate'}
        title="Regenerate the management secret?"
        message="A new random 32-character secret replaces the current one. Tools that use the old secret stop working after the proxy restarts."
        confirmLabel="Regenerate"
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          setConfirm(null);
          void apply(api.regenerateSecret);
        }}
      />
      <ConfirmDialog
        open={confirm === 'regenerate-key'}
        title="Regenerate the API key?"
        message="A new random API key replaces the current one. Profiles that use the current key through the local proxy are updated to the new one; other clients must be given it."
        confirmLabel="Regenerate API key"
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          setConfirm(null);
          void apply(api.regenerateApiKey);
        }}
      />
      <ConfirmDialog
        open={confirm === 'reset'}
        title="Reset both tokens?"
        message="The API key and the management secret go back to this install's defaults. Clients configured with a custom key must be updated."
        confirmLabel="Reset tokens"
        danger
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          setConfirm(null);
          void apply(api.resetTokens);
        }}
      />
    </>
  );
}

function SetTokensForm(props: { busy: boolean; onSubmit: (body: { apiKey?: string; managementSecret?: string }) => void }) {
  const [apiKey, setApiKey] = useState('');
  const [secret, setSecret] = useState('');
  const [useDefaultKey, setUseDefaultKey] = useState(false);
  const [errors, setErrors] = useState<{ apiKey?: string; secret?: string; form?: string }>({});

  const submit = (e: Event) => {
    e.preventDefault();
    const next: typeof errors = {};
    if (!useDefaultKey && apiKey && !TOKEN_RE.test(apiKey)) next.apiKey = '8–256 printable characters, no spaces';
    if (secret && !TOKEN_RE.test(secret)) next.secret = '8–256 printable characters, no spaces';
    if (!useDefaultKey && !apiKey && !secret) next.form = 'Enter a new API key or management secret';
    setErrors(next);
    if (Object.keys(next).length) return;
    const body: { apiKey?: string; managementSecret?: string } = {};
    if (useDefaultKey) body.apiKey = '';
    else if (apiKey) body.apiKey = apiKey;
    if (secret) body.managementSecret = secret;
    props.onSubmit(body);
    setApiKey('');
    setSecret('');
    setUseDefaultKey(false);
  };

  return (
    <section class="panel" aria-labelledby="set-tokens-title">
      <h2 id="set-tokens-title">Set tokens</h2>
      <form onSubmit={submit} aria-label="Set tokens" noValidate>
        <div class="form-grid">
          <Field id="new-api-key" label="New API key" error={errors.apiKey} hint="Leave empty to keep the current key.">
            {(a) => <SecretInput {...a} hidden={true} value={apiKey} disabled={useDefaultKey} onInput={(e: Event) => setApiKey((e.currentTarget as HTMLInputElement).value)} />}
          </Field>
          <Field id="new-secret" label="New management secret" error={errors.secret} hint="Leave empty to keep the current secret.">
            {(a) => <SecretInput {...a} hidden={true} value={secret} onInput={(e: Event) => setSecret((e.currentTarget as HTMLInputElement).value)} />}
          </Field>
        </div>
        <label class="check">
          <input type="checkbox" checked={useDefaultKey} onChange={(e) => setUseDefaultKey(e.currentTarget.checked)} /> Go back to the default API key
        </label>
        {errors.form ? (
          <p class="field-error" role="alert">
            <span aria-hidden="true">✕ </span>
            {errors.form}
          </p>
        ) : null}
        <div class="actions">
          <button type="submit" class="btn btn-primary" disabled={props.busy}>
            Save tokens
          </button>
        </div>
      </form>
    </section>
  );
}

/** After any token change: the proxy only picks it up on restart, so offer that right here (issue 28.7). */
function RestartBanner(props: { result: TokenWriteResult; onDone: () => void }) {
  const [restarted, setRestarted] = useState<ProxyRestartResult | null>(null);
  if (restarted) {
    return (
      <Notice tone="success" title="Proxy restarted" onDismiss={props.onDone}>
        <span data-testid="restart-result">The new tokens are in effect on port {restarted.port}.</span>
        {restarted.updatedProfiles.length > 0 ? <UpdatedProfiles names={restarted.updatedProfiles} what="API key" /> : null}
      </Notice>
    );
  }
  const running = props.result.restartRequired;
  return (
    <Notice tone={running ? 'warning' : 'success'} title={running ? 'Restart required' : 'Tokens saved'} onDismiss={props.onDone}>
      <span data-testid="token-message">{props.result.message}</span>
      {running ? <RestartProxyButton onRestarted={setRestarted} /> : <span class="muted"> The proxy is stopped: its next start uses the new tokens.</span>}
      <UpdatedProfiles names={'updatedProfiles' in props.result ? props.result.updatedProfiles : undefined} what="API key" />
    </Notice>
  );
}
