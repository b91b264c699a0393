import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api.js';
import { Field } from '../../components/field.js';
import { ErrorNotice, Notice } from '../../components/notice.js';
import { SecretInput } from '../../components/secret-input.js';
import { useAction } from '../../lib/use-action.js';

/** The same rules the API applies (decisions §6), checked first so mistakes show on their field. */
export function validateImport(token: string, machineId: string): { token?: string; machineId?: string } {
  const errors: { token?: string; machineId?: string } = {};
  if (!token.trim()) errors.token = 'Access token is required';
  else if (token.trim().length <= 50) errors.token = `An access token is longer than 50 characters (this one has ${token.trim().length})`;
  const id = machineId.trim().replaceAll('-', '');
  if (!machineId.trim()) errors.machineId = 'Machine ID is required';
  else if (!/^[0-9a-fA-F]{32}$/.test(id)) errors.machineId = 'A machine ID is 32 hexadecimal characters (dashes are ignored)';
  return errors;
}

export function BridgeImportForm(props: { onImported: () => void }) {
  const [token, setToken] = useState('');
  const [machineId, setMachineId] = useState('');
  const [errors, setErrors] = useState<{ token?: string; machineId?: string }>({});
  const importAction = useAction((t: string, m: string) => api.bridgeImport(t, m));
  const detect = useAction(api.bridgeAutoDetect);

  const submit = async (e: Event) => {
    e.preventDefault();
    detect.clear();
    const found = validateImport(token, machineId);
    setErrors(found);
    if (found.token || found.machineId) return;
    if (await importAction.run(token.trim(), machineId.trim())) {
      setToken('');
      setMachineId('');
      props.onImported();
    }
  };
  const autoDetect = async () => {
    importAction.clear();
    if (await detect.run()) props.onImported();
  };
  const serverError = importAction.error instanceof ApiError && importAction.error.status === 400 ? importAction.error : null;

  return (
    <section class="panel" aria-labelledby="bridge-import-title">
      <h2 id="bridge-import-title">Credentials</h2>
      <div class="actions">
        <button type="button" class="btn" onClick={autoDetect} disabled={detect.busy}>
          {detect.busy ? 'Detecting…' : 'Auto-detect from the editor'}
        </button>
        <span class="muted">macOS and Linux; needs the sqlite3 command.</span>
      </div>
      <ErrorNotice error={detect.error} context="Auto-detect" onDismiss={detect.clear} />
      {detect.result ? <Notice tone="success" onDismiss={detect.clear}>{detect.result.message ?? 'Credentials imported.'}</Notice> : null}
      <form onSubmit={submit} aria-label="Import credentials manually" noValidate data-testid="bridge-import">
        <h3>Import manually</h3>
        <Field id="bridge-token" label="Access token" error={errors.token}>
          {(a) => <SecretInput {...a} hidden={true} class="mono" value={token} onInput={(e: Event) => setToken((e.currentTarget as HTMLInputElement).value)} />}
        </Field>
        <Field id="bridge-machine" label="Machine ID" error={errors.machineId} hint="32 hexadecimal characters">
          {(a) => <input {...a} class="mono" value={machineId} onInput={(e) => setMachineId(e.currentTarget.value)} autocomplete="off" spellcheck={false} />}
        </Field>
        {serverError ? (
          <p class="field-error" role="alert">
            <span aria-hidden="true">✕ </span>
            {serverError.error}
            {serverError.detail ? `: ${serverError.detail}` : ''}
          </p>
        ) : (
          <ErrorNotice error={importAction.error} context="Import" onDismiss={importAction.clear} />
        )}
        <div class="actions">
          <button type="submit" class="btn btn-primary" disabled={importAction.busy}>
            {importAction.busy ? 'Importing…' : 'Import'}
          </button>
        </div>
      </form>
      {importAction.result ? <Notice tone="success" onDismiss={importAction.clear}>{importAction.result.message ?? 'Credentials imported.'}</Notice> : null}
    </section>
  );
}
