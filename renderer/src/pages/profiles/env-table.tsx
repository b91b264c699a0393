import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { ErrorNotice } from '../../components/notice.js';
import { SecretInput } from '../../components/secret-input.js';
import { isSensitiveEntry, MASK } from '../../lib/secrets.js';
import { asText, PLACEHOLDERS, type EnvRow } from './env-rows.js';
import { MODEL_LIST_ID } from './model-suggestions.js';
import { isModelKey } from './switching.js';

/**
 * The env editor. Secrets arrive masked; "Reveal" fetches the raw value for that key only
 * when asked. An untouched mask is sent back as-is, and the API keeps the stored secret.
 */
export function EnvTable(props: { profile: string; rows: EnvRow[]; onChange: (rows: EnvRow[]) => void; onReveal: (rows: EnvRow[]) => void; problems: Map<number, string>; valueProblems: Map<number, string>; exists: boolean }) {
  const [revealError, setRevealError] = useState<unknown>(undefined);
  const update = (id: number, patch: Partial<EnvRow>) => props.onChange(props.rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));

  const reveal = async (row: EnvRow) => {
    if (row.value !== MASK) return props.onReveal(props.rows.map((r) => (r.id === row.id ? { ...r, revealed: !r.revealed } : r)));
    setRevealError(undefined);
    try {
      const raw = await api.settingsRaw(props.profile);
      const value = asText(raw.settings.env?.[row.key] ?? '');
      // Revealing is not an edit: patch the row without marking the form dirty.
      props.onReveal(props.rows.map((r) => (r.id === row.id ? { ...r, value, revealed: true } : r)));
    } catch (err) {
      setRevealError(err);
    }
  };

  return (
    <>
      <table class="env-table">
        <caption class="sr-only">Environment variables of {props.profile}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row, i) => {
            // A value the API masked (a URL with a password under a plain key) stays a secret field too.
            const sensitive = isSensitiveEntry(row.key, row.value) || row.value === MASK;
            const problem = props.problems.get(row.id);
            const errId = `env-err-${row.id}`;
            const valueProblem = props.valueProblems.get(row.id);
            const valueErrId = `env-value-err-${row.id}`;
            const label = row.key || `variable ${i + 1}`;
            return (
              <tr key={row.id} class={problem || valueProblem ? 'row-invalid' : undefined}>
                <td>
                  <input
                    class="mono"
                    aria-label={`Name of ${label}`}
                    value={row.key}
                    placeholder="NAME"
                    onInput={(e) => update(row.id, { key: e.currentTarget.value })}
                    aria-invalid={problem ? true : undefined}
                    aria-describedby={problem ? errId : undefined}
                    spellcheck={false}
                    autocomplete="off"
                  />
                  {problem ? (
                    <small id={errId} class="field-error">
                      <span aria-hidden="true">✕ </span>
                      {problem}
                    </small>
                  ) : null}
                </td>
                <td>
                  <SecretInput
                    class="mono"
                    hidden={sensitive && !row.revealed}
                    list={isModelKey(row.key) ? MODEL_LIST_ID : undefined}
                    aria-label={`Value of ${label}`}
                    placeholder={PLACEHOLDERS[row.key.trim()]}
                    value={row.value}
                    aria-invalid={valueProblem ? true : undefined}
                    aria-describedby={valueProblem ? valueErrId : undefined}
                    onInput={(e: Event) => update(row.id, { value: (e.currentTarget as HTMLInputElement).value })}
                  />
                  {valueProblem ? (
                    <small id={valueErrId} class="field-error" data-testid="env-value-error">
                      <span aria-hidden="true">✕ </span>
                      {valueProblem}
                    </small>
                  ) : null}
                </td>
                <td class="row-actions">
                  {sensitive ? (
                    <button type="button" class="btn btn-small" aria-pressed={row.revealed} onClick={() => void reveal(row)} disabled={!props.exists && row.value === MASK}>
                      {row.revealed ? 'Hide' : 'Reveal'}
                      <span class="sr-only"> {label}</span>
                    </button>
                  ) : null}
                  <button type="button" class="btn btn-small btn-quiet" onClick={() => props.onChange(props.rows.filter((r) => r.id !== row.id))}>
                    Remove<span class="sr-only"> {label}</span>
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <ErrorNotice error={revealError} context="Reveal" onDismiss={() => setRevealError(undefined)} />
    </>
  );
}
