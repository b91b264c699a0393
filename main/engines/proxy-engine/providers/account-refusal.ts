import { responsesFailure } from '../../translate/index.js';
import type { AccountUpstream } from './account-upstream.js';

/** What an account's refusal means for the request: the client's error, and whether another account may serve it. */
export interface AccountRefusal {
  status: number;
  message: string;
  tryNext: boolean;
}

/**
 * A refusal for one account (the ChatGPT backend, Copilot's API). A quota answer cools that account until its
 * reset (the backend says when) and the request moves on; a 401 means the provider signed it out
 * (another account may still serve); a 5xx cools it briefly. Anything else is the request's fault
 * and goes to the client. Messages say what to do next.
 */
export function accountRefusal(upstream: AccountUpstream, slot: number, status: number, body: string, now: number, cooldownSeconds: number): AccountRefusal {
  const account = upstream.accounts[slot]!;
  const failure = responsesFailure(parse(body), status);
  const who = `${upstream.name} account ${account.email}`;
  if (status === 429 || failure.status === 429) {
    const until = now + (failure.resetsInSeconds ?? cooldownSeconds) * 1000;
    upstream.pool.coolDownUntil(slot, until, 'quota exhausted');
    return { status: 429, message: `${who}: quota exhausted until ${new Date(until).toISOString()} (${failure.message})`, tryNext: true };
  }
  if (status === 401) {
    upstream.pool.coolDownUntil(slot, now + cooldownSeconds * 1000, 'signed out by the provider');
    return { status: 401, message: `${who} was signed out by the provider: sign in again (switchboard login ${upstream.name})`, tryNext: true };
  }
  if (status === 403 && /challenge|cloudflare|<html/i.test(body)) {
    upstream.pool.coolDownUntil(slot, now + cooldownSeconds * 1000, 'Cloudflare challenge');
    return { status: 403, message: `${who}: the provider answered with a Cloudflare challenge instead of its API; try again later or sign in again`, tryNext: true };
  }
  if (status >= 500) {
    upstream.pool.coolDownUntil(slot, now + cooldownSeconds * 1000, 'provider error');
    return { status, message: `${who}: ${failure.message}`, tryNext: true };
  }
  return { status, message: `${who}: ${failure.message}`, tryNext: false };
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return { error: { message: body.slice(0, 300) } };
  }
}
