import type { InputHTMLAttributes } from 'preact';

type Shared = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'role' | 'list'>;

/** A text input that hides its value while `hidden` (password type: no autofill, no spellcheck). */
export function SecretInput(props: Shared & { hidden: boolean }) {
  const { hidden, ...rest } = props;
  return hidden ? (
    <input {...rest} type="password" autocomplete="off" spellcheck={false} />
  ) : (
    <input {...rest} type="text" autocomplete="off" spellcheck={false} />
  );
}
