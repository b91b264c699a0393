import type { InputHTMLAttributes } from 'preact';

type Shared = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'role' | 'list'>;

/**
 * A text input that hides its value while `hidden` (password type: no autofill, no spellcheck).
 * `list` (suggestions) applies only while shown: a password field offers none.
 */
export function SecretInput(props: Shared & { hidden: boolean; list?: string }) {
  const { hidden, list, ...rest } = props;
  return hidden ? (
    <input {...rest} type="password" autocomplete="off" spellcheck={false} />
  ) : (
    <input {...rest} list={list} type="text" autocomplete="off" spellcheck={false} />
  );
}
