import { errorMessage } from '../../infra/file-stat.js';
import type { AccountView } from './account-view.js';
import { checkCallback } from './callback-check.js';
import type { CallbackOutcome } from './callback-listener.js';
import { AccountsError, ProviderRefusal } from './errors.js';
import type { AccountProvider } from './providers.js';

export type SignInStatus = 'waiting' | 'ok' | 'error' | 'expired' | 'cancelled';

export interface SignInState {
  status: SignInStatus;
  account?: AccountView;
  error?: string;
}

/** What an authorization-code sign-in waits for; set by the provider's start. */
export interface CodeWait {
  /** The `state` the callback must carry. */
  state: string;
  /** Where the provider sends the browser (for the paste hint). */
  redirectUri: string;
  /** Exchanges the code and saves the account (the provider's part: codex, agy, gemini…). */
  complete: (code: string) => Promise<AccountView>;
}

/** The part of a sign-in session a callback reads and changes. */
export interface CallbackSession {
  provider: AccountProvider;
  state: SignInState;
  code?: CodeWait;
  /** The callback is being completed: a second one is refused. */
  busy: boolean;
}

/**
 * One callback of an authorization-code sign-in, loopback or pasted, for every provider alike:
 * decided first (callback-check.ts: state, replay, provider error), then the session's `complete`.
 * `finish` ends the session with the outcome; the answer is the page the browser gets.
 */
export async function answerCallback(session: CallbackSession, params: URLSearchParams, finish: (state: SignInState) => void): Promise<CallbackOutcome> {
  const handled = session.busy ? 'being completed' : session.state.status !== 'waiting' ? session.state.status : null;
  const decision = checkCallback(session.code?.state, handled, params);
  if (decision.kind === 'refuse') return decision.outcome;
  if (decision.kind === 'provider-error') {
    finish({ status: 'error', error: `${session.provider}: the provider refused the sign-in (${decision.reason})` });
    return decision.outcome;
  }
  const wait = session.code!; // a code decision needs an expected state, so the sign-in has one
  session.busy = true;
  try {
    const account = await wait.complete(decision.code);
    finish({ status: 'ok', account });
    return { ok: true, status: 200, title: 'Signed in', message: `Switchboard signed in ${account.label}. You can close this tab.` };
  } catch (err) {
    const message = signInMessage(err);
    finish({ status: 'error', error: message });
    return { ok: false, status: 502, title: 'Sign-in failed', message };
  } finally {
    session.busy = false;
  }
}

/** The message a failed sign-in shows: the provider's name and its reason, never a stack. */
export function signInMessage(err: unknown): string {
  if (err instanceof ProviderRefusal) return `${err.provider}: ${err.message}`;
  if (err instanceof AccountsError) return err.detail ?? err.message;
  return errorMessage(err);
}
