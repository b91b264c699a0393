import { useState } from 'preact/hooks';

/** How many characters of a session id the table shows: enough to tell sessions apart by eye. */
export const SHORT_ID = 8;

export function shortId(id: string): string {
  return id.length > SHORT_ID + 1 ? `${id.slice(0, SHORT_ID)}…` : id;
}

/**
 * A session id, shortened; the full id is in the tooltip and a click copies it (said in words,
 * for screen readers too).
 */
export function SessionId(props: { id: string }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.id);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
    setTimeout(() => setCopied('idle'), 2000);
  };
  return (
    <button type="button" class="link-button session-id" title={`${props.id} (click to copy)`} onClick={() => void copy()} data-session-id={props.id}>
      <span class="mono">{shortId(props.id)}</span>
      <span class="sr-only"> copy the full session id {props.id}</span>
      <span aria-live="polite" class="session-id-state">
        {copied === 'copied' ? ' ✓ Copied' : copied === 'failed' ? ' ✕ Copy failed' : ''}
      </span>
    </button>
  );
}
