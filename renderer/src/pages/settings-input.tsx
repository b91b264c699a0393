import { Field } from '../components/field.js';
import type { ConfigField } from './settings-fields.js';

/** One config.yaml key as a checkbox or text input; `error` is the API's message for that path. */
export function ConfigInput(props: { field: ConfigField; value: unknown; onChange: (v: unknown) => void; error?: string | null }) {
  const f = props.field;
  const id = `cfg-${f.path.replaceAll('.', '-')}`;
  const value = props.value ?? f.fallback;
  if (f.kind === 'bool') {
    return (
      <label class="check" for={id}>
        <input id={id} type="checkbox" checked={value === true} onChange={(e) => props.onChange(e.currentTarget.checked)} /> {f.label}
        {props.error ? <small class="field-error"> ✕ {props.error}</small> : null}
      </label>
    );
  }
  if (f.kind === 'percent') {
    return (
      <Field id={id} label={f.label} hint={f.hint} error={props.error}>
        {(a) => <input {...a} type="number" min={1} max={100} step={1} inputMode="decimal" value={percentText(props.value)} onInput={(e) => props.onChange(fromPercent(e.currentTarget.value))} />}
      </Field>
    );
  }
  if (f.kind === 'list') {
    return (
      <Field id={id} label={f.label} hint={f.hint} error={props.error}>
        {(a) => <input {...a} value={Array.isArray(value) ? value.join(', ') : String(value ?? '')} onChange={(e) => props.onChange(fromList(e.currentTarget.value))} spellcheck={false} />}
      </Field>
    );
  }
  return (
    <Field id={id} label={f.label} hint={f.hint} error={props.error}>
      {(a) => (
        <>
          <input {...a} value={String(props.value ?? '')} list={f.kind === 'zone' ? 'zone-list' : undefined} onInput={(e) => props.onChange(e.currentTarget.value)} spellcheck={false} />
          {f.kind === 'zone' ? (
            <datalist id="zone-list">
              {Intl.supportedValuesOf('timeZone').map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
          ) : null}
        </>
      )}
    </Field>
  );
}

/** 0.2 → "20"; null or absent → "" (off). */
export function percentText(value: unknown): string {
  return typeof value === 'number' ? String(Math.round(value * 10_000) / 100) : '';
}

/** "20" → 0.2, "" → null; anything else goes to the server as typed, which names the problem. */
export function fromPercent(text: string): unknown {
  const t = text.trim();
  if (!t) return null;
  const n = Number(t);
  return Number.isFinite(n) ? Math.round(n * 100) / 10_000 : t;
}

/** "a, b" → ["a", "b"]; "" → undefined (the key is left out: the defaults apply). */
export function fromList(text: string): string[] | undefined {
  const items = text.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  return items.length > 0 ? items : undefined;
}
