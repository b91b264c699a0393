import { randomUUID } from 'node:crypto';
import type { Clock } from '../../infra/clock.js';
import type { AccountView } from './account-view.js';
import { AGY_CODE_FLOW } from './agy/agy-sign-in.js';
import { listenForCallback, type CallbackListener, type CallbackOutcome } from './callback-listener.js';
import { answerCallback, signInMessage, type CodeFlowProvider, type CodeWait, type SignInState } from './code-flow.js';
import { pollDevice, type PollStep } from './device-poll.js';
import { pollCodexDevice, startCodexDevice } from './codex/codex-device.js';
import { CODEX, CODEX_CODE_FLOW, codexRecord } from './codex/codex-oauth.js';
import { AccountsError } from './errors.js';
import { GEMINI_CODE_FLOW } from './gemini/gemini-sign-in.js';
import { beginKiroSignIn, type KiroBinary, type KiroSignInOptions } from './kiro/kiro-binary-sign-in.js';
import { fetchCopilotToken, fetchGithubUser, ghcpRecord, GHCP, pollGhcpDevice, startGhcpDevice } from './ghcp/ghcp-auth.js';
import { overrideOrigin, type OriginOverrides } from '../../infra/origin-overrides.js';
import type { Outbound } from './outbound.js';
import { createState } from './pkce.js';
import type { AccountProvider } from './providers.js';
import type { AuthRecord } from './auth-store.js';

export type { SignInState, SignInStatus } from './code-flow.js';
export type SignInMethod = 'browser' | 'device' | 'paste';

/** What a provider's start needs beyond the method (gemini: the Code Assist project). */
export interface SignInOptions {
  projectId?: string;
}

export interface SignInStart {
  signInId: string;
  url: string;
  userCode?: string;
  expiresAt: number;
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
  /** The environment (CLIProxyAPI's client id/secret overrides for agy and gemini). */
  env: NodeJS.ProcessEnv;
  /** Between Cloud Code onboardUser polls (agy, gemini: 2 s); tests with a fake provider lower it. */
  onboardIntervalMs?: number;
}

interface Session {
  id: string;
  provider: AccountProvider;
  start: SignInStart;
  state: SignInState;
  /** Authorization-code sign-ins: what the callback must carry, and the provider's completion. */
  code?: CodeWait;
  /** The callback is being completed: a second one is refused. */
  busy: boolean;
  listener?: CallbackListener;
  timers: Set<NodeJS.Timeout>;
  /** Ends the sign-in where it runs (Kiro: the binary's session) when the user cancels. */
  cancelRemote?: () => Promise<void>;
}

/** The providers that sign in with an authorization code on a loopback callback. */
const CODE_FLOWS: Partial<Record<AccountProvider, CodeFlowProvider>> = { codex: CODEX_CODE_FLOW, agy: AGY_CODE_FLOW, gemini: GEMINI_CODE_FLOW };

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

  async start(provider: AccountProvider, method: SignInMethod, options: SignInOptions = {}): Promise<SignInStart> {
    const waiting = [...this.sessions.values()].filter((x) => x.state.status === 'waiting').length;
    if (waiting >= MAX_WAITING) throw new AccountsError('too-many-sign-ins', `${waiting} sign-ins are waiting; finish or cancel one first`);
    if (provider === 'ghcp') {
      if (method === 'paste') throw new AccountsError('invalid-method', 'ghcp signs in with GitHub\'s device flow: use method "device" (or "browser")');
      return this.startGhcp();
    }
    if (provider === 'codex' && method === 'device') return this.startCodexDevice();
    const flow = CODE_FLOWS[provider];
    if (!flow) throw new AccountsError('sign-in-unavailable', `${provider} has no sign-in here`);
    if (method === 'device') throw new AccountsError('invalid-method', `${provider} signs in in the browser: use method "browser" or "paste"`);
    return this.startCodeFlow(provider, flow, method, options);
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
      throw new AccountsError('invalid-callback', `Paste the whole address the browser was sent to (it starts with ${session.code?.redirectUri ?? 'http://localhost'}?code=…)`);
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

  /**
   * An authorization-code sign-in of any provider (CODE_FLOWS): the provider plans it, the session
   * completes it through the plan and saves the account; for `browser` the loopback listener
   * (127.0.0.1, alive only while the sign-in waits). The authorize URL goes through
   * `network.origin_overrides` like every outbound call.
   */
  private async startCodeFlow(provider: AccountProvider, flow: CodeFlowProvider, method: SignInMethod, options: SignInOptions): Promise<SignInStart> {
    const port = (await this.deps.oauthPort(provider)) ?? flow.port;
    const state = createState();
    const { http, env, onboardIntervalMs } = this.deps;
    const plan = flow.plan({ port, state, http, env, now: () => this.deps.clock.now(), onboardIntervalMs, projectId: options.projectId });
    const url = overrideOrigin(plan.url, await this.deps.overrides());
    const session = this.open(provider, { url, expiresAt: this.deps.clock.now() + CODE_FLOW_MS }, CODE_FLOW_MS);
    session.code = {
      state,
      redirectUri: plan.redirectUri,
      complete: async (code) => {
        const { file, record } = await plan.complete(code);
        // Cancelled (or expired) while the provider answered, e.g. during onboarding: nothing is saved.
        if (session.state.status !== 'waiting') throw new AccountsError('sign-in-not-waiting', `The sign-in was ${session.state.status} before ${provider} answered; nothing was saved`);
        return this.deps.save(provider, file, record);
      },
    };
    if (method === 'browser') {
      try {
        session.listener = await listenForCallback(port, plan.callbackPath, (params) => this.onCallback(session, params));
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
        failed: (err) => this.finish(session, { status: 'error', error: signInMessage(err) }),
      },
      Math.max(intervalMs, floorMs),
      step,
    );
  }

  /** One callback, loopback or pasted: decided and completed alike for every provider (code-flow.ts). */
  private onCallback(session: Session, params: URLSearchParams): Promise<CallbackOutcome> {
    return answerCallback(session, params, (state) => this.finish(session, state));
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
