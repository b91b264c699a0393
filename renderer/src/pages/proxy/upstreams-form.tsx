import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import type { UpstreamHealthList, UpstreamsSaved } from '../../api-types.js';
import { ErrorNotice } from '../../components/notice.js';
import { useAction } from '../../lib/use-action.js';

interface Row {
  id: number;
  name: string;
  previousName?: string;
  format: 'openai' | 'anthropic';
  baseUrl: string;
  models: string;
  /** One key per line; empty keeps the saved keys. */
  keys: string;
  keyCount: number;
}

let nextId = 1;

/**
 * Upstreams without YAML (issue 30, point 5): add, edit, reorder, remove. Saving replaces the
 * `upstreams` list through the same validated, atomic write as the YAML editor; comments and
 * keys this form does not show stay in the file. Keys are never shown: an empty key field keeps
 * the saved ones.
 */
export function UpstreamsForm(props: { list: UpstreamHealthList; onSaved: (saved: UpstreamsSaved) => void; onCancel: () => void }) {
  const [rows, setRows] = useState<Row[]>(() =>
    props.list.upstreams.map((u) => ({ id: nextId++, name: u.name, previousName: u.name, format: u.format, baseUrl: u.baseUrl, models: u.models.join(', '), keys: '', keyCount: u.keyCount })),
  );
  const save = useAction(async () => {
    const saved = await api.saveUpstreams({
      expectedMtime: props.list.configMtime,
      upstreams: rows.map((r) => {
        const keys = r.keys.split('\n').map((k) => k.trim()).filter(Boolean);
        return {
          name: r.name.trim(),
          ...(r.previousName ? { previousName: r.previousName } : {}),
          format: r.format,
          baseUrl: r.baseUrl.trim(),
          models: r.models.split(',').map((m) => m.trim()).filter(Boolean),
          ...(keys.length > 0 ? { apiKeys: keys } : {}),
        };
      }),
    });
    props.onSaved(saved);
    return saved;
  });
  const update = (id: number, patch: Partial<Row>) => setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  const move = (index: number, by: -1 | 1) =>
    setRows((rs) => {
      const next = [...rs];
      const [row] = next.splice(index, 1);
      next.splice(index + by, 0, row!);
      return next;
    });
  return (
    <form
      class="upstream-form"
      data-testid="upstream-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <ol class="upstream-rows">
        {rows.map((r, i) => (
          <li key={r.id} class="card upstream-row">
            <fieldset>
              <legend>
                {i + 1}. {r.name || 'new upstream'}
              </legend>
              <div class="form-grid">
                <label class="field">
                  Name
                  <input value={r.name} onInput={(e) => update(r.id, { name: e.currentTarget.value })} spellcheck={false} required />
                </label>
                <label class="field">
                  Format
                  <select value={r.format} onChange={(e) => update(r.id, { format: e.currentTarget.value as Row['format'] })}>
                    <option value="openai">openai (Chat Completions)</option>
                    <option value="anthropic">anthropic (Messages)</option>
                  </select>
                </label>
                <label class="field">
                  Base URL
                  <input value={r.baseUrl} onInput={(e) => update(r.id, { baseUrl: e.currentTarget.value })} spellcheck={false} required placeholder={r.format === 'openai' ? 'https://api.example.com/v1' : 'https://api.example.com'} />
                </label>
                <label class="field">
                  Models (comma-separated)
                  <input value={r.models} onInput={(e) => update(r.id, { models: e.currentTarget.value })} spellcheck={false} />
                </label>
                <label class="field">
                  API keys (one per line)
                  <textarea
                    rows={2}
                    value={r.keys}
                    onInput={(e) => update(r.id, { keys: e.currentTarget.value })}
                    spellcheck={false}
                    autocomplete="off"
                    placeholder={r.previousName && r.keyCount > 0 ? `empty keeps the ${r.keyCount} saved key${r.keyCount === 1 ? '' : 's'}` : 'none'}
                  />
                </label>
              </div>
              <div class="actions">
                <button type="button" class="btn btn-small btn-quiet" onClick={() => move(i, -1)} disabled={i === 0}>
                  ↑ Up<span class="sr-only"> ({r.name})</span>
                </button>
                <button type="button" class="btn btn-small btn-quiet" onClick={() => move(i, 1)} disabled={i === rows.length - 1}>
                  ↓ Down<span class="sr-only"> ({r.name})</span>
                </button>
                <button type="button" class="btn btn-small btn-danger" onClick={() => setRows((rs) => rs.filter((x) => x.id !== r.id))}>
                  Remove<span class="sr-only"> {r.name}</span>
                </button>
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      <div class="actions">
        <button
          type="button"
          class="btn"
          onClick={() => setRows((rs) => [...rs, { id: nextId++, name: '', format: 'openai', baseUrl: '', models: '', keys: '', keyCount: 0 }])}
        >
          Add upstream
        </button>
        <button type="submit" class="btn btn-primary" disabled={save.busy}>
          {save.busy ? 'Saving…' : 'Save upstreams'}
        </button>
        <button type="button" class="btn btn-quiet" onClick={props.onCancel} disabled={save.busy}>
          Cancel
        </button>
      </div>
      <ErrorNotice error={save.error} context="Save upstreams" />
    </form>
  );
}
