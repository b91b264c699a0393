import { errorMessage } from '../../infra/file-stat.js';
import type { AccountView } from './account-view.js';
import { checkCallback } from './callback-check.js';
import type { CallbackOutcome } from './callback-listener.js';
import type { AuthRecord } from './auth-store.js';
import { AccountsError, ProviderRefusal } from './errors.js';
import type { Outbound } from './outbound.js';
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

/** What a provider's authorization-code flow is given to plan one sign-in. */
export interface CodeFlowInput {
  /** The loopback port (the provider's registered one unless `oauth_port` says otherwise). */
  port: number;
  /** This sign-in's random `state`. */
  state: string;
  http: Outbound;
  env: NodeJS.ProcessEnv;
  now: () => number;
  /** Between Cloud Code onboardUser polls (Google flows); unset: the provider's own pace. */
  onboardIntervalMs?: number;
  /** gemini: the Code Assist project. */
  projectId?: string;
}

/** One planned sign-in: where the browser goes and comes back, and what its code becomes. */
export interface CodeFlowPlan {
  callbackPath: string;
  redirectUri: string;
  /** The provider's authorize URL (origin overrides are applied by the caller). */
  url: string;
  /** Exchanges the code (and whatever the provider needs after it) into the account's file. */
  complete: (code: string) => Promise<{ file: string; record: AuthRecord }>;
}

/** A provider that signs in with an authorization code on a loopback callback (codex, agy, gemini). */
export interface CodeFlowProvider {
  /** The port registered with the provider's client. */
  port: number;
  /** Plans one sign-in; throws (an AccountsError) when the request lacks what the provider needs. */
  plan: (input: CodeFlowInput) => CodeFlowPlan;
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
