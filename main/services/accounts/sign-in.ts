import { randomUUID } from 'node:crypto';
import type { Clock } from '../../infra/clock.js';
import { errorMessage } from '../../infra/file-stat.js';
import type { AccountView } from './account-view.js';
import { listenForCallback, type CallbackListener, type CallbackOutcome } from './callback-listener.js';
import { checkCallback } from './callback-check.js';
import { pollDevice, type PollStep } from './device-poll.js';
import { pollCodexDevice, startCodexDevice } from './codex/codex-device.js';
import { CODEX, codexAuthorizeUrl, codexRecord, codexRedirectUri, exchangeCodexCode } from './codex/codex-oauth.js';
import { AccountsError, ProviderRefusal } from './errors.js';
import { beginKiroSignIn, type KiroBinary, type KiroSignInOptions } from './kiro/kiro-binary-sign-in.js';
import { fetchCopilotToken, fetchGithubUser, ghcpRecord, GHCP, pollGhcpDevice, startGhcpDevice } from './ghcp/ghcp-auth.js';
import { overrideOrigin, type OriginOverrides } from '../../infra/origin-overrides.js';
import type { Outbound } from './outbound.js';
import { createPkce, createState } from './pkce.js';
import type { AccountProvider } from './providers.js';
import type { AuthRecord } from './auth-store.js';

export type SignInMethod = 'browser' | 'device' | 'paste';
export type SignInStatus = 'waiting' | 'ok' | 'error' | 'expired' | 'cancelled';

export interface SignInStart {
  signInId: string;
  url: string;
  userCode?: string;
  expiresAt: number;
}

export interface SignInState {
  status: SignInStatus;
  account?: AccountView;
  error?: string;
}

export interface SignInDeps {
  http: Outbound;
  clock: Clock;
  overrides: () => Promise<OriginOverrides>;
  /** proxy YAML `providers.<p>.oauth_port`, when set. */
  oauthPort: (provider: AccountProvider) => Promise<number | undefined>;
  /** Saves the new account's file and answers its view. */
  save: (provider: AccountProvider, file: string, record: AuthRecord) => Promise<AccountView>;
  /** Every change of a sign-in's state (the `account` event). */
  onState: (signInId: string, provider: AccountProvider, state: SignInState) => void;
  /** Floor between device-flow polls (GitHub asks for 5 s); tests with a fake provider lower it. */
  pollFloorMs?: number;
}

interface Session {
  id: string;
  provider: AccountProvider;
  start: SignInStart;
  state: SignInState;
  /** Authorization-code sign-ins: what the callback must carry and what the exchange needs. */
  code?: { state: string; verifier: string; redirectUri: string };
  /** The callback is being exchanged: a second one is refused. */
  busy: boolean;
  listener?: CallbackListener;
  timers: Set<NodeJS.Timeout>;
  /** Ends the sign-in where it runs (Kiro: the binary's session) when the user cancels. */
  cancelRemote?: () => Promise<void>;
}

/** An authorization-code sign-in waits this long for its callback. */
const CODE_FLOW_MS = 10 * 60_000;
/** Sign-ins waiting at once; each may hold timers and a device-flow poll. */
const MAX_WAITING = 10;
/** Finished sign-ins stay readable this long. */
const KEEP_FINISHED_MS = 10 * 60_000;
/** Kiro: a device code lives 10 minutes; its status is a loopback call to the binary, cheap to ask often. */
const KIRO_FLOW_MS = 10 * 60_000;
const KIRO_POLL_MS = 500;

/** The sign-ins in progress (decisions §4.1): start, status, callback (pasted or on the loopback), cancel. */
export class SignIns {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly deps: SignInDeps) {}

  async start(provider: AccountProvider, method: SignInMethod): Promise<SignInStart> {
    const waiting = [...this.sessions.values()].filter((x) => x.state.status === 'waiting').length;
    if (waiting >= MAX_WAITING) throw new AccountsError('too-many-sign-ins', `${waiting} sign-ins are waiting; finish or cancel one first`);
    if (provider === 'ghcp') {
      if (method === 'paste') throw new AccountsError('invalid-method', 'ghcp signs in with GitHub\'s device flow: use method "device" (or "browser")');
      return this.startGhcp();
    }
    return method === 'device' ? this.startCodexDevice() : this.startCodexCode(method);
  }

  status(id: string): SignInState {
    return this.session(id).state;
  }

  /** The pasted redirect URL (headless or remote machines); answers the state after it. */
  async callback(id: string, pasted: string): Promise<SignInState> {
    const session = this.session(id);
    let params: URLSearchParams;
    try {
      params = new URL(pasted.trim()).searchParams;
    } catch {
      throw new AccountsError('invalid-callback', 'Paste the whole address the browser was sent to (it starts with http://localhost:1455/auth/callback?code=…)');
    }
    const outcome = await this.onCallback(session, params);
    if (!outcome.ok && session.state.status === 'waiting') throw new AccountsError('invalid-callback', outcome.message);
    if (!outcome.ok && outcome.status === 409) throw new AccountsError('sign-in-not-waiting', outcome.message);
    return session.state;
  }

  cancel(id: string): SignInState {
    const session = this.session(id);
    if (session.state.status === 'waiting') {
      void session.cancelRemote?.();
      this.finish(session, { status: 'cancelled', error: 'Sign-in cancelled' });
    }
    return session.state;
  }

  /** Ends every sign-in (the app is stopping): listeners closed, timers cleared. */
  async stop(): Promise<void> {
    for (const session of this.sessions.values()) {
      if (session.state.status === 'waiting') this.finish(session, { status: 'cancelled', error: 'Switchboard stopped' });
      for (const t of session.timers) clearTimeout(t);
      await session.listener?.close();
    }
    this.sessions.clear();
  }

  /** Kiro through the managed binary's management routes; the flow itself is kiro/kiro-binary-sign-in.ts. */
  async startKiro(binary: KiroBinary, options: KiroSignInOptions): Promise<SignInStart> {
    const waiting = [...this.sessions.values()].filter((x) => x.state.status === 'waiting').length;
    if (waiting >= MAX_WAITING) throw new AccountsError('too-many-sign-ins', `${waiting} sign-ins are waiting; finish or cancel one first`);
    const flow = await beginKiroSignIn(binary, options);
    const session = this.open('kiro', { url: flow.url, userCode: flow.userCode, expiresAt: this.deps.clock.now() + KIRO_FLOW_MS }, KIRO_FLOW_MS);
    session.cancelRemote = flow.cancel;
    this.poll(session, KIRO_POLL_MS, flow.step, KIRO_POLL_MS);
    return session.start;
  }

  private async startCodexCode(method: SignInMethod): Promise<SignInStart> {
    const configured = await this.deps.oauthPort('codex');
    const port = configured ?? CODEX.port;
    const pkce = createPkce();
    const state = createState();
    const redirectUri = codexRedirectUri(port);
    const url = overrideOrigin(codexAuthorizeUrl({ redirectUri, challenge: pkce.challenge, state }), await this.deps.overrides());
    const session = this.open('codex', { url, expiresAt: this.deps.clock.now() + CODE_FLOW_MS }, CODE_FLOW_MS);
    session.code = { state, verifier: pkce.verifier, redirectUri };
    if (method === 'browser') {
      try {
        session.listener = await listenForCallback(port, CODEX.callbackPath, (params) => this.onCallback(session, params));
      } catch (err) {
        this.drop(session);
        throw err;
      }
    }
    return session.start;
  }

  private async startCodexDevice(): Promise<SignInStart> {
    const device = await startCodexDevice(this.deps.http);
    const url = overrideOrigin(CODEX.deviceVerification, await this.deps.overrides());
    const session = this.open('codex', { url, userCode: device.userCode, expiresAt: this.deps.clock.now() + 15 * 60_000 }, 15 * 60_000);
    this.poll(session, device.intervalMs, async () => {
      const tokens = await pollCodexDevice(this.deps.http, device);
      if (!tokens) return 'pending';
      const { file, record } = codexRecord(tokens, this.deps.clock.now());
      return this.deps.save('codex', file, record);
    });
    return session.start;
  }

  private async startGhcp(): Promise<SignInStart> {
    const device = await startGhcpDevice(this.deps.http);
    const url = overrideOrigin(device.verificationUri, await this.deps.overrides());
    const session = this.open('ghcp', { url, userCode: device.userCode, expiresAt: this.deps.clock.now() + device.expiresInMs }, device.expiresInMs);
    let interval = Math.max(device.intervalMs, this.floor());
    this.poll(session, interval, async () => {
      const answer = await pollGhcpDevice(this.deps.http, device);
      if (answer.kind === 'pending') return 'pending';
      if (answer.kind === 'slow-down') {
        // GitHub: add 5 s on slow_down (the floor is those 5 s unless a test lowered it).
        interval += this.floor();
        return { slowDown: interval };
      }
      const user = await fetchGithubUser(this.deps.http, answer.accessToken);
      const copilot = await fetchCopilotToken(this.deps.http, answer.accessToken);
      const { file, record } = ghcpRecord(user, answer, copilot, this.deps.clock.now());
      return this.deps.save('ghcp', file, record);
    });
    return session.start;
  }

  /** `floorMs`: the shortest interval allowed (GitHub's 5 s unless a test lowered it; Kiro's own 500 ms). */
  private poll(session: Session, intervalMs: number, step: () => Promise<PollStep>, floorMs = this.floor()): void {
    pollDevice(
      {
        waiting: () => session.state.status === 'waiting',
        timers: session.timers,
        done: (account) => this.finish(session, { status: 'ok', account }),
        failed: (err) => this.finish(session, { status: 'error', error: messageOf(err) }),
      },
      Math.max(intervalMs, floorMs),
      step,
    );
  }

  /** Decides one callback (callback-check.ts), then exchanges the code. */
  private async onCallback(session: Session, params: URLSearchParams): Promise<CallbackOutcome> {
    const handled = session.busy ? 'being completed' : session.state.status !== 'waiting' ? session.state.status : null;
    const decision = checkCallback(session.code?.state, handled, params);
    if (decision.kind === 'refuse') return decision.outcome;
    if (decision.kind === 'provider-error') {
      this.finish(session, { status: 'error', error: `codex: the provider refused the sign-in (${decision.reason})` });
      return decision.outcome;
    }
    const { code } = decision;
    const expected = session.code!; // a code decision needs an expected state, so the sign-in has one
    session.busy = true;
    try {
      const tokens = await exchangeCodexCode(this.deps.http, { code, redirectUri: expected.redirectUri, verifier: expected.verifier });
      const { file, record } = codexRecord(tokens, this.deps.clock.now());
      const account = await this.deps.save('codex', file, record);
      this.finish(session, { status: 'ok', account });
      return { ok: true, status: 200, title: 'Signed in', message: `Switchboard signed in ${account.label}. You can close this tab.` };
    } catch (err) {
      const message = messageOf(err);
      this.finish(session, { status: 'error', error: message });
      return { ok: false, status: 502, title: 'Sign-in failed', message };
    } finally {
      session.busy = false;
    }
  }

  private open(provider: AccountProvider, start: Omit<SignInStart, 'signInId'>, lifetimeMs: number): Session {
    const id = randomUUID();
    const session: Session = { id, provider, start: { signInId: id, ...start }, state: { status: 'waiting' }, busy: false, timers: new Set() };
    this.sessions.set(id, session);
    const expiry = setTimeout(() => this.finish(session, { status: 'expired', error: 'The sign-in expired before it was completed; start it again' }), lifetimeMs);
    expiry.unref();
    session.timers.add(expiry);
    this.deps.onState(id, provider, session.state);
    return session;
  }

  private finish(session: Session, state: SignInState): void {
    if (session.state.status !== 'waiting') return;
    session.state = state;
    for (const t of session.timers) clearTimeout(t);
    session.timers.clear();
    void session.listener?.close();
    session.listener = undefined;
    this.deps.onState(session.id, session.provider, state);
    const forget = setTimeout(() => this.sessions.delete(session.id), KEEP_FINISHED_MS);
    forget.unref();
    session.timers.add(forget);
  }

  private drop(session: Session): void {
    for (const t of session.timers) clearTimeout(t);
    this.sessions.delete(session.id);
  }

  private session(id: string): Session {
    const session = this.sessions.get(id);
    if (!session) throw new AccountsError('sign-in-not-found', `No sign-in ${id} (finished sign-ins are kept for 10 minutes)`);
    return session;
  }

  private floor(): number {
    return this.deps.pollFloorMs ?? GHCP.minIntervalMs;
  }
}

function messageOf(err: unknown): string {
  if (err instanceof ProviderRefusal) return `${err.provider}: ${err.message}`;
  if (err instanceof AccountsError) return err.detail ?? err.message;
  return errorMessage(err);
}
