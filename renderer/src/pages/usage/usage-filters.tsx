import { useMemo } from 'preact/hooks';
import { isoDay, systemTimeZone } from '../../lib/format.js';

export interface UsageFilter {
  from: string;
  to: string;
  zone: string;
  /** A coding agent's id; absent = every agent. */
  agent?: string;
}

function shift(day: string, days: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Quick ranges, computed in the chosen zone so "today" means the user's today. */
export type Preset = '7d' | '30d' | 'month' | 'all';

export function presetRange(preset: Preset, zone: string): { from: string; to: string } {
  const today = isoDay(new Date(), zone);
  if (preset === '7d') return { from: shift(today, -6), to: today };
  if (preset === '30d') return { from: shift(today, -29), to: today };
  if (preset === 'month') return { from: today.slice(0, 8) + '01', to: today };
  return { from: '', to: '' };
}

const PRESETS: Array<[Preset, string]> = [
  ['7d', '7 days'],
  ['30d', '30 days'],
  ['month', 'This month'],
  ['all', 'All time'],
];

/** `agents`: the ids to offer (agents with data); the filter shows when there are two or more. */
export function UsageFilters(props: { value: UsageFilter; onChange: (f: UsageFilter) => void; agents?: string[] }) {
  const zones = useMemo(() => {
    const list = Intl.supportedValuesOf('timeZone');
    const sys = systemTimeZone();
    return list.includes(sys) ? list : [sys, ...list];
  }, []);
  const v = props.value;
  const set = (patch: Partial<UsageFilter>) => props.onChange({ ...v, ...patch });
  const invalid = v.from && v.to && v.from > v.to;
  return (
    <form class="filters" aria-label="Usage filters" onSubmit={(e) => e.preventDefault()}>
      <div class="field">
        <label for="usage-from">From</label>
        <input id="usage-from" type="date" value={v.from} max={v.to || undefined} onChange={(e) => set({ from: e.currentTarget.value })} />
      </div>
      <div class="field">
        <label for="usage-to">To</label>
        <input id="usage-to" type="date" value={v.to} min={v.from || undefined} onChange={(e) => set({ to: e.currentTarget.value })} />
      </div>
      <div class="field">
        <label for="usage-zone">Timezone</label>
        <select id="usage-zone" value={v.zone} onChange={(e) => set({ zone: e.currentTarget.value })}>
          {zones.map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
      </div>
      {props.agents && props.agents.length > 1 ? (
        <div class="field">
          <label for="usage-agent">Agent</label>
          <select id="usage-agent" value={v.agent ?? ''} onChange={(e) => set({ agent: e.currentTarget.value || undefined })}>
            <option value="">All agents</option>
            {props.agents.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div class="segmented" role="group" aria-label="Quick ranges">
        {PRESETS.map(([preset, label]) => {
          const range = presetRange(preset, v.zone);
          const active = range.from === v.from && range.to === v.to;
          return (
            <button type="button" key={preset} aria-pressed={active} onClick={() => set(range)}>
              {label}
            </button>
          );
        })}
      </div>
      {invalid ? (
        <p class="field-error" role="alert">
          <span aria-hidden="true">✕ </span>“From” is after “To”.
        </p>
      ) : null}
    </form>
  );
}
