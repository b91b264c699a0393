import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import type { Preset } from '../../api-types.js';
import { ConfirmDialog } from '../../components/dialog.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { Field } from '../../components/field.js';
import { Empty, ErrorNotice, Loading } from '../../components/notice.js';
import { useAction } from '../../lib/use-action.js';
import { useResource } from '../../lib/use-resource.js';
import { MODEL_LIST_ID } from './model-suggestions.js';

const EMPTY: Preset = { name: '', default: '', opus: '', sonnet: '', haiku: '' };
const TIERS = ['opus', 'sonnet', 'haiku'] as const;

/**
 * Named model presets of one profile: apply, add and delete. Applying is refused while the
 * editor holds unsaved changes (`applyBlocked` says why), so a preset never races an edit.
 */
export function PresetsPanel(props: {
  profile: string;
  onChanged: () => void;
  onApply: (name: string) => void;
  applying: string | null;
  applyBlocked: string | null;
  /** Rendered between the table and the form: the apply result and its conflict dialog. */
  applyView: ComponentChildren;
  suggestionsNote: ComponentChildren;
}) {
  const presets = useResource(() => api.presets(props.profile), [props.profile]);
  const [draft, setDraft] = useState<Preset>(EMPTY);
  const [missing, setMissing] = useState<Set<string>>(new Set());
  const [toDelete, setToDelete] = useState<string | null>(null);
  const add = useAction((p: Preset) => api.addPreset(props.profile, p));
  const del = useAction((name: string) => api.deletePreset(props.profile, name));

  const submit = async (e: Event) => {
    e.preventDefault();
    const miss = new Set(['name', 'default'].filter((k) => !String(draft[k as keyof Preset] ?? '').trim()));
    setMissing(miss);
    if (miss.size) return;
    const body: Preset = { name: draft.name.trim(), default: draft.default.trim() };
    for (const t of TIERS) if (draft[t]?.trim()) body[t] = draft[t]!.trim();
    if (await add.run(body)) {
      setDraft(EMPTY);
      await presets.reload();
      props.onChanged();
    }
  };

  const columns: Column<Preset>[] = [
    { key: 'name', label: 'Name', render: (p) => p.name },
    { key: 'default', label: 'Default', render: (p) => <code>{p.default}</code> },
    ...TIERS.map((t) => ({ key: t, label: t[0]!.toUpperCase() + t.slice(1), render: (p: Preset) => (p[t] ? <code>{p[t]}</code> : '—') })),
    {
      key: 'actions',
      label: 'Actions',
      render: (p) => (
        <span class="row-actions">
          <button
            type="button"
            class="btn btn-small"
            onClick={() => props.onApply(p.name)}
            disabled={props.applying !== null || props.applyBlocked !== null}
            aria-describedby={props.applyBlocked ? 'apply-blocked' : undefined}
          >
            {props.applying === p.name ? 'Applying…' : 'Apply'}
            <span class="sr-only"> preset {p.name}</span>
          </button>
          <button type="button" class="btn btn-small btn-quiet" onClick={() => setToDelete(p.name)}>
            Delete<span class="sr-only"> preset {p.name}</span>
          </button>
        </span>
      ),
    },
  ];

  return (
    <section class="panel" aria-labelledby="presets-title">
      <header class="panel-head">
        <h2 id="presets-title">Model presets</h2>
      </header>
      <ErrorNotice error={presets.error} />
      {!presets.data && presets.loading ? <Loading what="presets" /> : null}
      {presets.data?.presets.length === 0 ? <Empty>No presets yet.</Empty> : null}
      {presets.data && presets.data.presets.length > 0 ? (
        <DataTable caption="Presets" captionHidden columns={columns} rows={presets.data.presets} rowKey={(p) => p.name} />
      ) : null}
      {props.applyBlocked && presets.data?.presets.length ? (
        <p id="apply-blocked" class="muted small">
          {props.applyBlocked}
        </p>
      ) : null}
      {props.applyView}
      <form class="preset-form" onSubmit={submit} aria-label="Add preset" noValidate>
        <h3>Add a preset</h3>
        <div class="form-grid">
          <Field id="preset-name" label="Name (required)" error={missing.has('name') ? 'Name is required' : null}>
            {(a) => <input {...a} value={draft.name} onInput={(e) => setDraft({ ...draft, name: e.currentTarget.value })} />}
          </Field>
          <Field id="preset-default" label="Default model (required)" error={missing.has('default') ? 'Default model is required' : null}>
            {(a) => <input {...a} class="mono" list={MODEL_LIST_ID} autocomplete="off" value={draft.default} onInput={(e) => setDraft({ ...draft, default: e.currentTarget.value })} />}
          </Field>
          {TIERS.map((t) => (
            <Field key={t} id={`preset-${t}`} label={`${t[0]!.toUpperCase() + t.slice(1)} model`}>
              {(a) => <input {...a} class="mono" list={MODEL_LIST_ID} autocomplete="off" value={draft[t] ?? ''} onInput={(e) => setDraft({ ...draft, [t]: e.currentTarget.value })} />}
            </Field>
          ))}
        </div>
        {props.suggestionsNote}
        <div class="actions">
          <button type="submit" class="btn" disabled={add.busy}>
            {add.busy ? 'Adding…' : 'Add preset'}
          </button>
        </div>
        <ErrorNotice error={add.error} context="Add preset" onDismiss={add.clear} />
        <ErrorNotice error={del.error} context="Delete preset" onDismiss={del.clear} />
      </form>
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete preset?"
        message={`Preset “${toDelete}” will be removed from ${props.profile}.`}
        confirmLabel="Delete"
        danger
        onCancel={() => setToDelete(null)}
        onConfirm={async () => {
          const name = toDelete!;
          setToDelete(null);
          if (await del.run(name)) {
            await presets.reload();
            props.onChanged();
          }
        }}
      />
    </section>
  );
}
