import type { CallbackOutcome } from './callback-listener.js';

export type CallbackDecision =
  | { kind: 'refuse'; outcome: CallbackOutcome }
  | { kind: 'provider-error'; reason: string; outcome: CallbackOutcome }
  | { kind: 'code'; code: string };

/**
 * What one callback is, before anything is exchanged (pure): a second one, one without this
 * sign-in's `state` (not from the sign-in Switchboard started), the provider's refusal, or a code.
 * `handled`: why no callback is taken any more (finished, or one is being exchanged), else null.
 */
export function checkCallback(expectedState: string | undefined, handled: string | null, params: URLSearchParams): CallbackDecision {
  const refuse = (status: number, title: string, message: string): CallbackDecision => ({ kind: 'refuse', outcome: { ok: false, status, title, message } });
  if (handled) return refuse(409, 'Sign-in already handled', `This sign-in is ${handled}; a second callback is refused.`);
  if (expectedState === undefined) return refuse(400, 'No callback expected', "This sign-in uses a device code: type the code on the provider's page; there is no address to paste.");
  if (params.get('state') !== expectedState) {
    return refuse(400, 'Sign-in refused', "The callback does not carry this sign-in's state, so it did not come from the sign-in Switchboard started. Nothing was saved.");
  }
  const providerError = params.get('error');
  if (providerError) {
    const reason = [providerError, params.get('error_description')].filter(Boolean).join(': ');
    return { kind: 'provider-error', reason, outcome: { ok: false, status: 400, title: 'Sign-in refused by the provider', message: reason } };
  }
  const code = params.get('code');
  if (!code) return refuse(400, 'Sign-in refused', 'The callback carries no authorization code.');
  return { kind: 'code', code };
}
