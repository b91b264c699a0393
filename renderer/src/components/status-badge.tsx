export type StatusKind = 'ok' | 'off' | 'bad' | 'warn';
const ICONS: Record<StatusKind, string> = { ok: '●', off: '○', bad: '✕', warn: '⚠' };

/** State as icon plus words; the colour only repeats what the text already says. */
export function StatusBadge(props: { kind: StatusKind; label: string }) {
  return (
    <span class={`badge badge-${props.kind}`}>
      <span aria-hidden="true">{ICONS[props.kind]}</span> {props.label}
    </span>
  );
}
