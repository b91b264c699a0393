import { useEffect, useRef, useState } from 'preact/hooks';
import { hasFilters, NO_FILTERS, STATUS_CHOICES, type TrafficFilters } from './traffic-format.js';

/**
 * Status, model and upstream filters. Text filters apply on Enter or when the field is left,
 * so the table is not re-read on every keystroke; the lists offer the names seen so far.
 */
export function TrafficFilterBar(props: { value: TrafficFilters; onChange: (f: TrafficFilters) => void; models: string[]; upstreams: string[] }) {
  const [draft, setDraft] = useState(props.value);
  const draftRef = useRef(draft);
  draftRef.current = draft;
  // Only a change made elsewhere (Clear filters under an empty table) resets what is typed here;
  // our own changes come back as props too and must not wipe a field being typed in.
  const sent = useRef(props.value);
  useEffect(() => {
    if (props.value !== sent.current) {
      sent.current = props.value;
      setDraft(props.value);
    }
  }, [props.value]);
  const apply = (patch: Partial<TrafficFilters>) => {
    const next = { ...draftRef.current, ...patch };
    draftRef.current = next;
    setDraft(next);
    if (next.status !== props.value.status || next.model.trim() !== props.value.model || next.upstream.trim() !== props.value.upstream) {
      const value = { status: next.status, model: next.model.trim(), upstream: next.upstream.trim() };
      sent.current = value;
      props.onChange(value);
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
          onInput={(e) => {
            const model = e.currentTarget.value;
            setDraft((d) => ({ ...d, model }));
          }}
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
          onInput={(e) => {
            const upstream = e.currentTarget.value;
            setDraft((d) => ({ ...d, upstream }));
          }}
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
      <button type="button" class="btn btn-quiet" disabled={!hasFilters(props.value) && !hasFilters(draft)} onClick={() => apply(NO_FILTERS)}>
        Clear filters
      </button>
    </form>
  );
}
