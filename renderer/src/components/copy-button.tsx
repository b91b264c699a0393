import { useState } from 'preact/hooks';

/** Copies `text`; the result is announced in words, not only by a changed icon. */
export function CopyButton(props: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
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
