import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../../api.js';
import type { BridgeSettings } from '../../api-types.js';
import { Field } from '../../components/field.js';
import { ErrorNotice, Loading, Notice } from '../../components/notice.js';
import { useAction } from '../../lib/use-action.js';
import { useResource } from '../../lib/use-resource.js';

const TEXT_FIELDS: Array<[keyof BridgeSettings, string]> = [
  ['model', 'Default model'],
  ['opus_model', 'Opus tier model'],
  ['sonnet_model', 'Sonnet tier model'],
  ['haiku_model', 'Haiku tier model'],
  ['upstream_url', 'Upstream URL'],
];
const FLAGS: Array<[keyof BridgeSettings, string]> = [
  ['enabled', 'Enabled'],
  ['auto_start', 'Start the daemon with Switchboard'],
  ['ghost_mode', 'Ghost mode (turns off editor telemetry)'],
];

export function BridgeSettingsForm(props: { onSaved: () => void }) {
  const settings = useResource(api.bridgeSettings, []);
  const [draft, setDraft] = useState<BridgeSettings | null>(null);
  const save = useAction((patch: Partial<BridgeSettings>) => api.saveBridgeSettings(patch));
  useEffect(() => {
    if (settings.data) setDraft(settings.data);
  }, [settings.data]);

  const portError = draft && (!Number.isInteger(draft.port) || draft.port < 1 || draft.port > 65535) ? 'A port is a whole number from 1 to 65535' : null;
  const serverMsg = save.error instanceof ApiError && save.error.status === 400 ? `${save.error.error}${save.error.detail ? `: ${save.error.detail}` : ''}` : null;

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!draft || portError || !settings.data) return;
    // Send only what changed: the API takes a validated partial object.
    const patch: Partial<BridgeSettings> = {};
    for (const k of Object.keys(draft) as Array<keyof BridgeSettings>) if (draft[k] !== settings.data[k]) patch[k] = draft[k] as never;
    const r = await save.run(patch);
    if (r) {
      setDraft(r.cursor);
      await settings.reload();
      props.onSaved();
    }
  };

  return (
    <section class="panel" aria-labelledby="bridge-settings-title">
      <h2 id="bridge-settings-title">Bridge settings</h2>
      <ErrorNotice error={settings.error} />
      {!draft && settings.loading ? <Loading what="settings" /> : null}
      {draft ? (
        <form onSubmit={submit} aria-label="Bridge settings" noValidate>
          <fieldset class="checks">
            <legend>Behaviour</legend>
            {FLAGS.map(([k, label]) => (
              <label class="check" key={k}>
                <input type="checkbox" checked={Boolean(draft[k])} onChange={(e) => setDraft({ ...draft, [k]: e.currentTarget.checked })} /> {label}
              </label>
            ))}
          </fieldset>
          <div class="form-grid">
            <Field id="bridge-port" label="Daemon port" error={portError}>
              {(a) => (
                <input {...a} type="number" min={1} max={65535} value={draft.port} onInput={(e) => setDraft({ ...draft, port: Number(e.currentTarget.value) })} />
              )}
            </Field>
            {TEXT_FIELDS.filter(([k]) => k in draft).map(([k, label]) => (
              <Field key={k} id={`bridge-${String(k)}`} label={label}>
                {(a) => <input {...a} class="mono" value={String(draft[k] ?? '')} onInput={(e) => setDraft({ ...draft, [k]: e.currentTarget.value })} />}
              </Field>
            ))}
          </div>
          {serverMsg ? (
            <p class="field-error" role="alert">
              <span aria-hidden="true">✕ </span>
              {serverMsg}
            </p>
          ) : null}
          <div class="actions">
            <button type="submit" class="btn btn-primary" disabled={save.busy}>
              {save.busy ? 'Saving…' : 'Save settings'}
            </button>
          </div>
        </form>
      ) : null}
      {save.error && !serverMsg ? <ErrorNotice error={save.error} context="Save" onDismiss={save.clear} /> : null}
      {save.result ? <Notice tone="success" onDismiss={save.clear}>Bridge settings saved.</Notice> : null}
    </section>
  );
}
