import { useEffect, useState } from 'preact/hooks';
import { hasFilters, NO_FILTERS, STATUS_CHOICES, type TrafficFilters } from './traffic-format.js';

/**
 * Status, model and upstream filters. Text filters apply on Enter or when the field is left,
 * so the table is not re-read on every keystroke; the lists offer the names seen so far.
 */
export function TrafficFilterBar(props: { value: TrafficFilters; onChange: (f: TrafficFilters) => void; models: string[]; upstreams: string[] }) {
  const [draft, setDraft] = useState(props.value);
  useEffect(() => setDraft(props.value), [props.value]);
  const apply = (patch: Partial<TrafficFilters>) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    if (next.status !== props.value.status || next.model.trim() !== props.value.model || next.upstream.trim() !== props.value.upstream) {
      props.onChange({ status: next.status, model: next.model.trim(), upstream: next.upstream.trim() });
    }
  };
  return (
    <form
      class="filters"
      aria-label="Request filters"
      onSubmit={(e) => {
        e.preventDefault();
        apply({});
      }}
    >
      <div class="field">
        <label for="traffic-status">Status</label>
        <select id="traffic-status" value={draft.status} onChange={(e) => apply({ status: e.currentTarget.value })}>
          {STATUS_CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="traffic-model">Model (asked or sent)</label>
        <input
          id="traffic-model"
          list="traffic-models"
          value={draft.model}
          placeholder="any"
          spellcheck={false}
          autocomplete="off"
          onInput={(e) => setDraft({ ...draft, model: e.currentTarget.value })}
          onChange={(e) => apply({ model: e.currentTarget.value })}
        />
        <datalist id="traffic-models">
          {props.models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </div>
      <div class="field">
        <label for="traffic-upstream">Upstream</label>
        <input
          id="traffic-upstream"
          list="traffic-upstreams"
          value={draft.upstream}
          placeholder="any"
          spellcheck={false}
          autocomplete="off"
          onInput={(e) => setDraft({ ...draft, upstream: e.currentTarget.value })}
          onChange={(e) => apply({ upstream: e.currentTarget.value })}
        />
        <datalist id="traffic-upstreams">
          {props.upstreams.map((u) => (
            <option key={u} value={u} />
          ))}
        </datalist>
      </div>
      <button type="submit" class="btn">
        Apply
      </button>
      <button type="button" class="btn btn-quiet" disabled={!hasFilters(props.value) && !hasFilters(draft)} onClick={() => props.onChange(NO_FILTERS)}>
        Clear filters
      </button>
    </form>
  );
}
