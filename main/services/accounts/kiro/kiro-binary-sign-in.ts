import { setTimeout as sleep } from 'node:timers/promises';
import { isRecord } from '../../../infra/json-checks.js';
import { ManagementError, type ManagementClient } from '../../cliproxy/management-client.js';
import type { AccountView } from '../account-view.js';
import type { PollStep } from '../device-poll.js';
import { AccountsError, ProviderRefusal } from '../errors.js';

/** `device`: AWS Builder ID (the default); `idc`: IAM Identity Center with the organisation's start URL. */
export interface KiroSignInOptions {
  method: 'device' | 'idc';
  startUrl?: string;
  region?: string;
}

/** What a Kiro sign-in needs from the managed binary and the accounts room. */
export interface KiroBinary {
  /** The running binary's management client; starts it, or throws `binary-not-installed`. */
  management(): Promise<ManagementClient>;
  /** The kiro auth files in proxy/auth/ now: file name → mtime. */
  kiroFiles(): Promise<Map<string, number>>;
  /** The view of an account file the binary wrote (and the first-account profile, the event). */
  adopt(file: string): Promise<AccountView>;
}

export type KiroStatus =
  | { kind: 'wait' }
  | { kind: 'code'; url: string; userCode: string }
  | { kind: 'ok' }
  | { kind: 'error'; message: string };

export interface KiroFlow {
  /** Verification URI (complete, with the code) and the code, as the binary reported them. */
  url: string;
  userCode: string;
  /** One poll of the binary's session: pending, or the new account. */
  step(): Promise<PollStep>;
  /** Ends the binary's session (older binaries have no route for it: their session expires). */
  cancel(): Promise<void>;
}

/** How long the start waits for the binary to report the device code. */
export const KIRO_CODE_WAIT_MS = 10_000;
const CODE_POLL_MS = 200;

/**
 * The binary's `get-auth-status` answer (reference accounts.md §1). Kiro's device flow reports its
 * code as `{"status":"error","error":"device_code|<verification_uri_complete>|<user_code>"}` while
 * it is still pending: that "error" is the code, not a failure.
 */
export function parseKiroStatus(body: unknown): KiroStatus {
  if (!isRecord(body)) return { kind: 'error', message: 'CLIProxyAPI answered get-auth-status with something that is not an object' };
  if (body.status === 'wait') return { kind: 'wait' };
  if (body.status === 'ok') return { kind: 'ok' };
  const text = typeof body.error === 'string' ? body.error : '';
  if (body.status === 'error' && text.startsWith('device_code|')) {
    const [, url, userCode] = text.split('|');
    if (url && userCode) return { kind: 'code', url, userCode };
  }
  // `auth_url|…` belongs to Kiro's social sign-in, which Switchboard does not start.
  return { kind: 'error', message: text || `CLIProxyAPI reported the sign-in as "${String(body.status)}"` };
}

/** Checks the IAM Identity Center inputs the way the binary will use them (start URL into an OIDC call, region into a host name). */
export function checkKiroOptions(options: KiroSignInOptions): KiroSignInOptions {
  if (options.method === 'device') {
    if (options.startUrl !== undefined || options.region !== undefined) throw new AccountsError('invalid-sign-in-options', 'startUrl and region belong to method "idc" (IAM Identity Center)');
    return { method: 'device' };
  }
  const startUrl = options.startUrl?.trim() ?? '';
  let parsed: URL | null = null;
  try {
    parsed = new URL(startUrl);
  } catch {
    parsed = null;
  }
  if (!parsed || parsed.protocol !== 'https:' || parsed.username || parsed.password || parsed.search || parsed.hash || startUrl.length > 512) {
    throw new AccountsError('invalid-sign-in-options', 'IAM Identity Center needs startUrl: your organisation\'s https start address, e.g. https://my-org.awsapps.com/start');
  }
  const region = (options.region ?? 'us-east-1').trim().toLowerCase();
  if (!/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/.test(region)) throw new AccountsError('invalid-sign-in-options', `region must be an AWS region such as us-east-1 or eu-west-1 (got "${options.region ?? ''}")`);
  return { method: 'idc', startUrl: startUrl.replace(/\/+$/, ''), region };
}

/** The query of `kiro-auth-url`: `method=aws` (Builder ID), or `method=idc&start_url=…&region=…`. */
export function kiroAuthQuery(options: KiroSignInOptions): Record<string, string> {
  if (options.method === 'idc') return { is_webui: 'true', method: 'idc', start_url: options.startUrl ?? '', region: options.region ?? 'us-east-1' };
  return { is_webui: 'true', method: 'aws' };
}

/**
 * Starts Kiro's device flow in the binary and waits (up to 10 s) for the code it shows, so the
 * start answer carries the URL and code. The binary writes the account's file itself; `step`
 * finds it by comparing proxy/auth/ with the listing taken before the start.
 */
export async function beginKiroSignIn(binary: KiroBinary, options: KiroSignInOptions, codeWaitMs = KIRO_CODE_WAIT_MS): Promise<KiroFlow> {
  const mgmt = await binary.management();
  const before = await binary.kiroFiles();
  const started = await mgmt.get('kiro-auth-url', { query: kiroAuthQuery(options) }).catch(refused);
  const state = isRecord(started) && typeof started.state === 'string' && started.state !== '' ? started.state : null;
  if (!state) throw new AccountsError('provider-failed', 'kiro: CLIProxyAPI started no sign-in session (no state in its answer)');
  const status = async () => parseKiroStatus(await mgmt.get('get-auth-status', { query: { state } }));
  const cancel = async () => void (await mgmt.request('DELETE', 'oauth-session', { query: { state } }).catch(() => undefined));

  const step = async (): Promise<PollStep> => {
    const now = await status();
    if (now.kind === 'wait' || now.kind === 'code') return 'pending';
    if (now.kind === 'error') throw new ProviderRefusal('kiro', now.message);
    const after = await binary.kiroFiles();
    const written = [...after].filter(([file, mtime]) => before.get(file) !== mtime).sort((a, b) => b[1] - a[1])[0];
    if (!written) throw new ProviderRefusal('kiro', 'CLIProxyAPI reported the sign-in as done but wrote no kiro file in proxy/auth/');
    return binary.adopt(written[0]);
  };

  const deadline = Date.now() + codeWaitMs;
  for (;;) {
    const now = await status().catch(refused);
    if (now.kind === 'code') return { url: now.url, userCode: now.userCode, step, cancel };
    if (now.kind === 'error') throw new AccountsError('provider-failed', `kiro: ${now.message}`);
    if (now.kind === 'ok') throw new AccountsError('provider-failed', 'kiro: CLIProxyAPI finished the sign-in before showing a code; check the Accounts list');
    if (Date.now() >= deadline) {
      await cancel();
      throw new AccountsError('provider-failed', `kiro: CLIProxyAPI showed no device code within ${codeWaitMs / 1000} s`);
    }
    await sleep(CODE_POLL_MS);
  }
}

function refused(err: unknown): never {
  if (err instanceof ManagementError) throw new AccountsError('provider-failed', `kiro: ${err.message}`);
  throw err;
}
