import type { ComponentChildren } from 'preact';

/** Label + control + hint + in-place error, wired with for/aria-describedby/aria-invalid. */
export function Field(props: {
  id: string;
  label: string;
  hint?: ComponentChildren;
  error?: string | null;
  children: (aria: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ComponentChildren;
}) {
  const hintId = props.hint ? `${props.id}-hint` : undefined;
  const errorId = props.error ? `${props.id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div class={props.error ? 'field field-invalid' : 'field'}>
      <label for={props.id}>{props.label}</label>
      {props.children({ id: props.id, 'aria-describedby': describedBy, 'aria-invalid': props.error ? true : undefined })}
      {props.hint ? (
        <small id={hintId} class="muted">
          {props.hint}
        </small>
      ) : null}
      {props.error ? (
        <small id={errorId} class="field-error">
          <span aria-hidden="true">✕ </span>
          {props.error}
        </small>
      ) : null}
    </div>
  );
}
