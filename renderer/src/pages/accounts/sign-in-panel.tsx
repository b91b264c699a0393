import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api.js';
import type { SignInMethod, SignInStart, SignInState } from '../../api-types.js';
import { CopyButton } from '../../components/copy-button.js';
import { ErrorNotice, Notice } from '../../components/notice.js';
import { desktop } from '../../lib/desktop.js';
import { formatDuration } from '../../lib/format.js';
import { useLiveReload, useNow } from '../../lib/live.js';
import { useAction } from '../../lib/use-action.js';
import { useResource } from '../../lib/use-resource.js';
import { KiroSignIn, type KiroOptions } from './kiro-sign-in.js';
import { AcknowledgeRisk } from './acknowledge-risk.js';
import { GeminiProjectForm } from './gemini-project.js';

interface ProviderCard {
  provider: 'codex' | 'ghcp' | 'agy' | 'gemini' | 'kiro' | 'iflow';
  name: string;
  blurb: string;
  methods: Array<{ method: SignInMethod; label: string; primary?: boolean }>;
  /** The file the import reads, and the button's name; none for discontinued providers. */
  importFrom?: { path: string; label: string };
  /** Why there is no sign-in button (retired or discontinued), or what to know before signing in. */
  note?: string;
  /** gemini: the sign-in asks for the Code Assist project first. */
  projectForm?: boolean;
}

const CARDS: ProviderCard[] = [
  {
    provider: 'codex',
    name: 'ChatGPT (Codex)',
    blurb: 'Your ChatGPT Plus, Pro or Team plan. The sign-in page returns to Switchboard on 127.0.0.1:1455.',
    methods: [
      { method: 'browser', label: 'Sign in', primary: true },
      { method: 'device', label: 'Use a code' },
      { method: 'paste', label: 'Paste the address' },
    ],
    importFrom: { path: '~/.codex/auth.json', label: 'Import from Codex CLI' },
  },
  {
    provider: 'ghcp',
    name: 'GitHub Copilot',
    blurb: 'Your Copilot subscription. Type a code at github.com, then Switchboard asks Copilot for its token.',
    methods: [{ method: 'device', label: 'Sign in', primary: true }],
    importFrom: { path: '~/.config/github-copilot/apps.json', label: 'Import from Copilot' },
  },
  {
    provider: 'agy',
    name: 'Antigravity',
    blurb: 'Your Google account\'s Antigravity models (Gemini 3, Claude). Google\'s page returns to Switchboard on 127.0.0.1:51121. Served through the CLIProxyAPI binary.',
    methods: [
      { method: 'browser', label: 'Sign in', primary: true },
      { method: 'paste', label: 'Paste the address' },
    ],
    note: 'Antigravity accounts used through third-party tools get banned. Use one you can afford to lose.',
  },
  {
    provider: 'gemini',
    name: 'Gemini CLI / Code Assist',
    blurb: 'A Code Assist Standard/Enterprise licence, or the account the Gemini CLI signed in. Served through the CLIProxyAPI binary.',
    methods: [],
    projectForm: true,
    importFrom: { path: '~/.gemini/oauth_creds.json', label: 'Import from Gemini CLI' },
    note: 'Google retired Gemini CLI sign-in for individual, free, Google One and AI Pro/Ultra accounts on 2026-06-18. Code Assist Standard/Enterprise users sign in with their project id; everyone else can import the Gemini CLI\'s sign-in.',
  },
  {
    provider: 'kiro',
    name: 'Kiro',
    blurb: 'AWS Builder ID or IAM Identity Center, signed in and served through the CLIProxyAPI binary (Plus build; install it under Proxy → CLIProxyAPI). Or import the Kiro IDE\'s sign-in.',
    methods: [],
    importFrom: { path: '~/.aws/sso/cache/kiro-auth-token.json', label: 'Import from Kiro IDE' },
  },
  {
    provider: 'iflow',
    name: 'iFlow',
    blurb: 'Discontinued.',
    methods: [],
    note: 'iFlow shut down on 2026-04-17. Existing iFlow files stay listed below; there is no sign-in.',
  },
];

/** Whose page the user is on while a sign-in waits. */
const WAITING_FOR: Record<string, string> = { codex: 'ChatGPT', ghcp: 'GitHub', agy: 'Google', gemini: 'Google', kiro: 'AWS' };

/** Where the provider sends the browser back (the start of the address to paste), per code-flow provider. */
const CALLBACK_HINT: Record<string, string> = {
  codex: 'http://localhost:1455/auth/callback?code=…',
  agy: 'http://localhost:51121/oauth-callback?code=…',
  gemini: 'http://localhost:8085/oauth2callback?code=…',
};

/** Opens the provider's page: the desktop shell's browser, else a new tab. */
function openPage(url: string): void {
  const shell = desktop();
  if (shell) void shell.openExternal(url);
  else window.open(url, '_blank', 'noopener');
}

/** Sign in buttons per provider, and the sign-in in progress (code, countdown, paste box). */
export function SignInPanel(props: { onAccount: () => void }) {
  const [active, setActive] = useState<{ provider: string; method: SignInMethod; start: SignInStart } | null>(null);
  // A sign-in the server refused until its risk is acknowledged (agy): asked here, then retried.
  const [asking, setAsking] = useState<{ provider: string; method: SignInMethod; risk: string } | null>(null);
  const start = useAction(async (provider: string, method: SignInMethod, extra: { acknowledge?: boolean; projectId?: string } & KiroOptions = {}) => {
    let answer: SignInStart;
    try {
      answer = await api.signIn(provider, method, extra);
    } catch (err) {
      if (!(err instanceof ApiError) || err.error !== 'Acknowledgement required') throw err;
      setAsking({ provider, method, risk: err.detail ?? '' });
      return null;
    }
    setAsking(null);
    setActive({ provider, method, start: answer });
    if (method !== 'paste') openPage(answer.url);
    return answer;
  });
  const importer = useAction(async (provider: string) => {
    const answer = await api.importAccount(provider);
    props.onAccount();
    return answer;
  });
  return (
    <section class="panel" aria-labelledby="acc-sign-in" data-testid="accounts-sign-in">
      <header class="panel-head">
        <h2 id="acc-sign-in">Sign in</h2>
      </header>
      <ErrorNotice error={start.error} context="Sign-in" onDismiss={start.clear} />
      <ErrorNotice error={importer.error} context="Import" onDismiss={importer.clear} />
      {importer.result ? (
        <Notice tone="success" title="Imported" onDismiss={importer.clear}>
          {importer.result.account.provider} account {importer.result.account.label}
        </Notice>
      ) : null}
      {active ? (
        <ActiveSignIn key={active.start.signInId} {...active} onDone={props.onAccount} onClose={() => setActive(null)} />
      ) : asking ? (
        <AcknowledgeRisk
          provider={asking.provider}
          name={CARDS.find((c) => c.provider === asking.provider)?.name ?? asking.provider}
          risk={asking.risk}
          busy={start.busy}
          onAccept={() => void start.run(asking.provider, asking.method, { acknowledge: true })}
          onCancel={() => setAsking(null)}
        />
      ) : (
        <div class="acc-providers">
          {CARDS.map((c) => (
            <div class="card acc-provider" key={c.provider} data-testid={`sign-in-${c.provider}`}>
              <p class="card-label">{c.provider}</p>
              <p class="acc-provider-name">{c.name}</p>
              <p class="muted acc-blurb">{c.blurb}</p>
              {c.note ? <p class="acc-note" data-testid={`note-${c.provider}`}>{c.note}</p> : null}
              <div class="actions">
                {c.provider === 'kiro' ? <KiroSignIn busy={start.busy} onStart={(method, options) => void start.run('kiro', method, options)} /> : null}
                {c.methods.map((m) => (
                  <button key={m.method} type="button" class={`btn btn-small${m.primary ? ' btn-primary' : ''}`} disabled={start.busy} onClick={() => void start.run(c.provider, m.method)}>
                    {m.label}
                  </button>
                ))}
                {c.projectForm ? <GeminiProjectForm busy={start.busy} onSubmit={(projectId) => void start.run(c.provider, 'browser', { projectId })} /> : null}
                {c.importFrom ? (
                  <button type="button" class="btn btn-small btn-quiet" disabled={importer.busy} title={`Reads ${c.importFrom.path}`} onClick={() => void importer.run(c.provider)}>
                    {c.importFrom.label}
                  </button>
                ) : null}
              </div>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}

function ActiveSignIn(props: { provider: string; method: SignInMethod; start: SignInStart; onDone: () => void; onClose: () => void }) {
  const { start } = props;
  const now = useNow(1000);
  const state = useResource<SignInState>(async () => {
    const s = await api.signInState(start.signInId);
    if (s.status === 'ok') props.onDone();
    return s;
  }, [start.signInId]);
  useLiveReload(['account'], () => void state.reload(), 2000);
  const [pasted, setPasted] = useState('');
  const paste = useAction(async () => {
    const s = await api.signInCallback(start.signInId, pasted);
    void state.reload();
    return s;
  });
  const cancel = useAction(async () => {
    await api.cancelSignIn(start.signInId);
    props.onClose();
  });
  const s = state.data ?? { status: 'waiting' as const };
  if (s.status !== 'waiting') {
    return (
      <div data-testid="sign-in-result">
        {s.status === 'ok' && s.account ? (
          <Notice tone="success" title="Signed in">
            {s.account.provider} account <strong>{s.account.label}</strong> is ready. Its profile <code>{s.account.provider}</code> runs Claude Code through the proxy.
          </Notice>
        ) : (
          <Notice tone={s.status === 'cancelled' ? 'info' : 'error'} title={`Sign-in ${s.status}`}>
            {s.error}
          </Notice>
        )}
        <div class="actions">
          <button type="button" class="btn btn-small" onClick={props.onClose}>
            Done
          </button>
        </div>
      </div>
    );
  }
  const left = start.expiresAt - now;
  return (
    <div class="acc-active" data-testid="sign-in-active">
      {start.userCode ? (
        <>
          <p>
            Open <a href={start.url} target="_blank" rel="noopener noreferrer">{start.url}</a> and enter this code:
          </p>
          <p class="acc-code">
            <code data-testid="device-code">{start.userCode}</code> <CopyButton text={start.userCode} label="device code" />{' '}
            <a class="btn btn-small" href={start.url} target="_blank" rel="noopener noreferrer" onClick={(e) => {
                e.preventDefault();
                openPage(start.url);
              }}>
              Open sign-in page
            </a>
          </p>
        </>
      ) : (
        <p>
          {props.method === 'paste' ? 'Open the sign-in page on any machine:' : 'The sign-in page opened in your browser. If it did not:'}{' '}
          <a href={start.url} target="_blank" rel="noopener noreferrer">open it</a> <CopyButton text={start.url} label="sign-in address" />
        </p>
      )}
      <p class="muted" role="timer" aria-live="off">
        <span class="spinner" aria-hidden="true" /> Waiting for {WAITING_FOR[props.provider] ?? 'the provider'}… this sign-in expires in {formatDuration(left)}
      </p>
      {CALLBACK_HINT[props.provider] && !start.userCode ? (
        <form
          class="acc-paste"
          onSubmit={(e) => {
            e.preventDefault();
            void paste.run();
          }}
        >
          <div class="field">
            <label for="acc-paste-url">On another machine? Paste the address the browser ended on</label>
            <input id="acc-paste-url" type="url" placeholder={CALLBACK_HINT[props.provider]} value={pasted} onInput={(e) => setPasted((e.target as HTMLInputElement).value)} />
          </div>
          <button type="submit" class="btn btn-small" disabled={paste.busy || pasted.trim() === ''}>
            Finish sign-in
          </button>
        </form>
      ) : null}
      <ErrorNotice error={paste.error} context="Pasted address" onDismiss={paste.clear} />
      <div class="actions">
        <button type="button" class="btn btn-small btn-quiet" disabled={cancel.busy} onClick={() => void cancel.run()}>
          Cancel
        </button>
      </div>
    </div>
  );
}
