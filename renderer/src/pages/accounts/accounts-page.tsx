import { api } from '../../api.js';
import { PageHeader } from '../../components/page-header.js';
import { ErrorNotice, Loading } from '../../components/notice.js';
import { useLiveReload } from '../../lib/live.js';
import { useResource } from '../../lib/use-resource.js';
import { AccountList } from './account-list.js';
import { SignInPanel } from './sign-in-panel.js';
import './accounts.css';

/** Subscription accounts (decisions §4.1): sign in, see each account's state, pause, resume, remove. */
export function AccountsPage() {
  const accounts = useResource(api.accounts, []);
  useLiveReload(['account'], () => void accounts.reload(), 10_000);
  return (
    <>
      <PageHeader title="Accounts" subtitle="Run Claude Code on the ChatGPT, Copilot, Antigravity, Kiro or Gemini Code Assist subscription you already pay for." />
      <SignInPanel onAccount={() => void accounts.reload()} />
      <section class="panel" aria-labelledby="acc-list">
        <header class="panel-head">
          <h2 id="acc-list">Signed in</h2>
        </header>
        <ErrorNotice error={accounts.error} context="Accounts" />
        {!accounts.data && accounts.loading ? <Loading what="accounts" /> : null}
        {accounts.data ? <AccountList accounts={accounts.data.accounts} onChange={() => void accounts.reload()} /> : null}
      </section>
    </>
  );
}
