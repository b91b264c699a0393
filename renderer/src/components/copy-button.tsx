import { useState } from 'preact/hooks';

/**
 * Copies `text`, or what `text()` fetches (a secret read only when asked); the result is
 * announced in words, not only by a changed icon.
 */
export function CopyButton(props: { text: string | (() => Promise<string>); label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(typeof props.text === 'string' ? props.text : await props.text());
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 2000);
  };
  return (
    <button type="button" class="btn btn-small" onClick={copy} aria-live="polite">
      {state === 'copied' ? '✓ Copied' : state === 'failed' ? '✕ Copy failed' : 'Copy'}
      <span class="sr-only"> {props.label}</span>
    </button>
  );
}
