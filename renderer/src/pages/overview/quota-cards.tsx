import { useMemo } from 'preact/hooks';
import { api } from '../../api.js';
import { Empty, ErrorNotice, Loading } from '../../components/notice.js';
import { StatusBadge } from '../../components/status-badge.js';
import { errorText, formatDuration, formatTime } from '../../lib/format.js';
import { useNow } from '../../lib/live.js';
import { accountsFrom, groupByProvider, usedShare, type AccountQuota, type ProviderQuota } from '../../lib/quota-accounts.js';
import { href } from '../../lib/router.js';
import { useResource } from '../../lib/use-resource.js';

/** All accounts' quotas asked at once with the page; one account's failure does not hide the rest. */
async function loadQuotas(): Promise<AccountQuota[]> {
  const files = await api.authFiles();
  const accounts = accountsFrom(files.files.map((f) => f.name));
  return Promise.all(
    accounts.map((account) =>
      api.quota(account.provider, account.accountId).then(
        (quota) => ({ account, quota }),
        (error: unknown) => ({ account, error }),
      ),
    ),
  );
}

export function QuotaCards() {
  const res = useResource(loadQuotas, []);
  const providers = useMemo(() => (res.data ? groupByProvider(res.data) : null), [res.data]);
  return (
    <section class="panel" aria-labelledby="ov-quota" data-testid="overview-quota">
      <header class="panel-head">
        <h2 id="ov-quota">Quota</h2>
        <a href={href('accounts')}>Accounts</a>
      </header>
      <ErrorNotice error={res.error} context="Auth files" />
      {!res.data && res.loading ? <Loading what="quota" /> : null}
      {providers?.length === 0 ? (
        <Empty>
          No provider accounts in the proxy's auth files, so no quota to show. <a href={href('accounts')}>Sign in an account</a>
        </Empty>
      ) : null}
      {providers && providers.length > 0 ? (
        <ul class="quota-list">
          {providers.map((p) => (
            <ProviderRow key={p.provider} p={p} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function ProviderRow(props: { p: ProviderQuota }) {
  const now = useNow(1000);
  const { p } = props;
  const failed = p.accounts.filter((a) => a.error);
  const w = p.worst;
  const share = w ? usedShare(w.window) : 0;
  const pct = Math.round(share * 100);
  return (
    <li class="quota-row" data-testid={`quota-${p.provider}`}>
      <span class="quota-provider">{p.provider}</span>
      {w ? (
        <>
          <meter min={0} max={1} low={0.7} high={0.9} optimum={0} value={share} aria-label={`${p.provider} worst window used`} />
          <StatusBadge kind={share >= 0.9 ? 'bad' : share >= 0.7 ? 'warn' : 'ok'} label={`${pct}% used`} />
          <span class="muted quota-detail" title={w.window.resetAt ? formatTime(w.window.resetAt) : undefined}>
            <code>{w.window.model}</code>
            {w.window.resetAt ? ` · resets in ${formatDuration(w.window.resetAt - now)}` : ''}
            {p.accounts.length > 1 ? ` · worst of ${p.accounts.length} accounts (${w.accountId})` : ''}
          </span>
        </>
      ) : failed.length === 0 ? (
        <span class="muted">no quota windows reported</span>
      ) : null}
      {failed.map((a) => (
        <span key={a.account.accountId} class="quota-failed">
          <StatusBadge kind="warn" label="unavailable" /> <span class="muted">{a.account.accountId}: {errorText(a.error)}</span>
        </span>
      ))}
    </li>
  );
}
