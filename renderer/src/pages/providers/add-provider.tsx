import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api.js';
import type { CatalogProvider, ProviderAdded } from '../../api-types.js';
import { Field } from '../../components/field.js';
import { ErrorNotice, Notice } from '../../components/notice.js';
import { SecretInput } from '../../components/secret-input.js';
import { href } from '../../lib/router.js';
import { useAction } from '../../lib/use-action.js';
import { TestResult } from './test-result.js';

/**
 * Pick → paste key → Test → Add (decisions §4.2). The test makes one real request before
 * anything is saved; Add saves the profile (and, for an OpenAI-format provider, the proxy
 * upstream) and can make it the default and apply it to Claude Code in the same click.
 */
export function AddProvider(props: { provider: CatalogProvider; onAdded: () => void }) {
  const p = props.provider;
  const [apiKey, setApiKey] = useState('');
  const [showKey, setShowKey] = useState(false);
  const [name, setName] = useState(p.id);
  const [baseUrl, setBaseUrl] = useState(p.baseUrl);
  const [makeDefault, setMakeDefault] = useState(true);
  const [useForClaudeCode, setUseForClaudeCode] = useState(false);
  const test = useAction(() => api.testProvider({ template: p.id, apiKey: apiKey.trim() || undefined, baseUrl }));
  const add = useAction(async () => {
    const added = await api.addProvider({ template: p.id, apiKey: apiKey.trim() || undefined, name: name.trim() || p.id, baseUrl });
    const follow: string[] = [];
    if (makeDefault) follow.push(await api.setDefaultProfile(added.profile.name).then(() => 'made the default'));
    if (useForClaudeCode) follow.push(await api.applyClaudeCode(added.profile.name).then(() => 'applied to Claude Code'));
    props.onAdded();
    return { added, follow };
  });

  // Another provider picked: start over with its defaults.
  useEffect(() => {
    setApiKey('');
    setName(p.id);
    setBaseUrl(p.baseUrl);
    test.clear();
    add.clear();
  }, [p.id]);

  const missingKey = p.keyRequired && apiKey.trim() === '';
  const regions = p.regions ?? [];
  return (
    <section class="card add-provider" aria-labelledby="add-provider-title" data-testid="add-provider">
      <h2 id="add-provider-title">Add {p.name}</h2>
      <p class="muted">
        {p.format === 'anthropic'
          ? 'Claude Code talks to this provider directly: the profile holds its base URL and key.'
          : 'This provider speaks the OpenAI format: it becomes an upstream of the local proxy, and the profile goes through the proxy (started for you).'}
        {p.notes ? ` ${p.notes}` : ''}
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void add.run();
        }}
      >
        <div class="form-grid form-grid-wide">
          <Field
            id="provider-key"
            label={p.keyRequired ? 'API key' : 'API key (optional)'}
            hint={p.keyUrl ? <>Get one at <a href={p.keyUrl} target="_blank" rel="noreferrer">{new URL(p.keyUrl).host}</a>. Stored in the profile{p.format === 'openai' ? ' and the proxy config' : ''}, never shown again.</> : 'A local server needs none.'}
          >
            {(aria) => (
              <div class="input-with-button">
                <SecretInput {...aria} hidden={!showKey} value={apiKey} onInput={(e) => setApiKey(e.currentTarget.value)} placeholder="paste the key" />
                <button type="button" class="btn btn-small btn-quiet" onClick={() => setShowKey(!showKey)} aria-pressed={showKey}>
                  {showKey ? 'Hide' : 'Show'}
                </button>
              </div>
            )}
          </Field>
          <Field id="provider-name" label="Profile name" hint="What you pick in the tray and in switchboard run.">
            {(aria) => <input {...aria} value={name} onInput={(e) => setName(e.currentTarget.value)} spellcheck={false} />}
          </Field>
          {regions.length > 0 ? (
            <Field id="provider-region" label="Region" hint="Keys usually work only in the region they were made in.">
              {(aria) => (
                <select {...aria} value={baseUrl} onChange={(e) => setBaseUrl(e.currentTarget.value)}>
                  {regions.map((r) => (
                    <option key={r.id} value={r.baseUrl}>
                      {r.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ) : null}
        </div>
        <div class="checks">
          <label>
            <input type="checkbox" checked={makeDefault} onChange={(e) => setMakeDefault(e.currentTarget.checked)} /> Make it the default profile
          </label>
          <label>
            <input type="checkbox" checked={useForClaudeCode} onChange={(e) => setUseForClaudeCode(e.currentTarget.checked)} /> Use it for Claude Code now (writes ~/.claude/settings.json)
          </label>
        </div>
        <div class="actions">
          <button type="button" class="btn" onClick={() => void test.run()} disabled={test.busy || missingKey}>
            {test.busy ? 'Testing…' : 'Test connection'}
          </button>
          <button type="submit" class="btn btn-primary" disabled={add.busy || missingKey}>
            {add.busy ? 'Adding…' : `Add ${p.name}`}
          </button>
          {missingKey ? <span class="muted">Paste the key first.</span> : null}
        </div>
      </form>
      <ErrorNotice error={test.error} context="Test" />
      {test.result ? <TestResult result={test.result} /> : null}
      <ErrorNotice error={add.error} context="Add" />
      {add.result ? <Added added={add.result.added} follow={add.result.follow} /> : null}
    </section>
  );
}

function Added(props: { added: ProviderAdded; follow: string[] }) {
  const { profile, proxy, test } = props.added;
  return (
    <div data-testid="provider-added">
      <Notice tone={test.ok ? 'success' : 'warning'} title={`Added profile ${profile.name}`}>
        <p>
          {profile.via === 'proxy' ? 'Routed through the local proxy' : 'Direct'} · model <code>{profile.models.default}</code>
          {props.follow.length > 0 ? ` · ${props.follow.join(', ')}` : ''}.{' '}
          <a href={href('profiles', profile.name)}>Open the profile</a>
        </p>
        {proxy?.error ? <p>The proxy did not start: {proxy.error}</p> : null}
        {test.ok ? null : <p>The connection test failed, so the profile may not work yet: {test.message}</p>}
      </Notice>
    </div>
  );
}
