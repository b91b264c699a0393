import type { ComponentChildren } from 'preact';
import { ApiError } from '../api.js';

export type Tone = 'error' | 'warning' | 'success' | 'info';
const ICONS: Record<Tone, string> = { error: '✕', warning: '⚠', success: '✓', info: 'ℹ' };
const LABELS: Record<Tone, string> = { error: 'Error', warning: 'Warning', success: 'Done', info: 'Note' };

/** A message whose meaning is carried by icon and words, with colour only as a hint. */
export function Notice(props: { tone: Tone; title?: string; children?: ComponentChildren; onDismiss?: () => void }) {
  const live = props.tone === 'error' || props.tone === 'warning' ? 'alert' : 'status';
  return (
    <div class={`notice notice-${props.tone}`} role={live}>
      <span class="notice-icon" aria-hidden="true">{ICONS[props.tone]}</span>
      <div class="notice-body">
        <strong>{props.title ?? LABELS[props.tone]}</strong>
        {props.children ? <div class="notice-text">{props.children}</div> : null}
      </div>
      {props.onDismiss ? (
        <button type="button" class="btn-icon" aria-label="Dismiss" onClick={props.onDismiss}>
          <span aria-hidden="true">✕</span>
        </button>
      ) : null}
    </div>
  );
}

/** Shows what the API said, verbatim: its `error` as the title and its `message` below. */
export function ErrorNotice(props: { error: unknown; context?: string; onDismiss?: () => void }) {
  if (!props.error) return null;
  const err = props.error;
  const title = err instanceof ApiError ? err.error : 'Something went wrong';
  const detail = err instanceof ApiError ? err.detail : err instanceof Error ? err.message : String(err);
  const status = err instanceof ApiError && err.status ? ` (HTTP ${err.status})` : '';
  return (
    <Notice tone="error" title={(props.context ? `${props.context}: ` : '') + title + status} onDismiss={props.onDismiss}>
      {detail}
    </Notice>
  );
}

export function Loading(props: { what?: string }) {
  return (
    <p class="muted loading" role="status">
      <span class="spinner" aria-hidden="true" /> Loading{props.what ? ` ${props.what}` : ''}…
    </p>
  );
}

export function Empty(props: { children: ComponentChildren }) {
  return <p class="empty muted">{props.children}</p>;
}
