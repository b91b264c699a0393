import { useMemo, useState } from 'preact/hooks';
import { api } from '../../api.js';
import { PROVIDERS, type Quota } from '../../api-types.js';
import { Field } from '../../components/field.js';
import { Empty, ErrorNotice } from '../../components/notice.js';
import { StatusBadge } from '../../components/status-badge.js';
import { formatDuration, formatInt, formatTime } from '../../lib/format.js';
import { useNow } from '../../lib/live.js';
import { useAction } from '../../lib/use-action.js';
import { accountsFrom, QUOTA_UNITS as UNITS, usedShare } from '../../lib/quota-accounts.js';
import { useResource } from '../../lib/use-resource.js';

export function QuotaPanel() {
  const files = useResource(api.authFiles, []);
  const accounts = useMemo(() => accountsFrom(files.data?.files.map((f) => f.name) ?? []), [files.data]);
  const [provider, setProvider] = useState<string>('codex');
  const [accountId, setAccountId] = useState('');
  const [missing, setMissing] = useState(false);
  const fetchQuota = useAction((p: string, a: string) => api.quota(p, a));

  const submit = (e: Event) => {
    e.preventDefault();
    setMissing(!accountId.trim());
    if (accountId.trim()) void fetchQuota.run(provider, accountId.trim());
  };
  const pick = (p: string, a: string) => {
    setProvider(p);
    setAccountId(a);
    setMissing(false);
    void fetchQuota.run(p, a);
  };

  return (
    <section class="panel" aria-labelledby="quota-title">
      <header class="panel-head">
        <h2 id="quota-title">Quota per account</h2>
      </header>
      {accounts.length ? (
        <div class="chips-row" role="group" aria-label="Accounts found in auth files">
          <span class="muted">From auth files:</span>
          {accounts.map((a) => (
            <button type="button" class="btn btn-small" key={`${a.provider}-${a.accountId}`} onClick={() => pick(a.provider, a.accountId)}>
              {a.provider}: {a.accountId}
            </button>
          ))}
        </div>
      ) : null}
      <form class="inline-form" onSubmit={submit} aria-label="Look up quota" noValidate>
        <Field id="quota-provider" label="Provider">
          {(a) => (
            <select {...a} value={provider} onChange={(e) => setProvider(e.currentTarget.value)}>
              {PROVIDERS.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="quota-account" label="Account (email or id)" error={missing ? 'Account is required' : null}>
          {(a) => <input {...a} value={accountId} onInput={(e) => setAccountId(e.currentTarget.value)} autocomplete="off" />}
        </Field>
        <button type="submit" class="btn" disabled={fetchQuota.busy}>
          {fetchQuota.busy ? 'Fetching…' : 'Show quota'}
        </button>
      </form>
      {files.data && accounts.length === 0 ? <p class="muted">No provider accounts found in the auth files; enter one above.</p> : null}
      <ErrorNotice error={fetchQuota.error} context="Quota" onDismiss={fetchQuota.clear} />
      {fetchQuota.result ? <QuotaTable quota={fetchQuota.result} /> : null}
    </section>
  );
}

function QuotaTable(props: { quota: Quota }) {
  const now = useNow(1000);
  const unit = UNITS[props.quota.provider] ?? '';
  if (props.quota.quotas.length === 0) return <Empty>This provider reports no quota windows for {props.quota.accountId}.</Empty>;
  return (
    <div class="table-wrap">
      <table>
        <caption>
          {props.quota.provider} · {props.quota.accountId} {unit ? <span class="muted">(unit: {unit})</span> : null}
        </caption>
        <thead>
          <tr>
            <th scope="col">Window</th>
            <th scope="col" class="num">Used</th>
            <th scope="col" class="num">Remaining</th>
            <th scope="col" class="num">Limit</th>
            <th scope="col">State</th>
            <th scope="col">Resets in</th>
          </tr>
        </thead>
        <tbody>
          {props.quota.quotas.map((q) => {
            const share = usedShare(q);
            return (
              <tr key={q.model}>
                <th scope="row">
                  <code>{q.model}</code>
                </th>
                <td class="num">{formatInt(q.used)}</td>
                <td class="num">{formatInt(q.remaining)}</td>
                <td class="num">{formatInt(q.limit)}</td>
                <td>
                  <meter min={0} max={1} low={0.7} high={0.9} optimum={0} value={share} aria-label={`${q.model} used`} />{' '}
                  {share >= 0.9 ? <StatusBadge kind="bad" label={`${Math.round(share * 100)}% used`} /> : share >= 0.7 ? <StatusBadge kind="warn" label={`${Math.round(share * 100)}% used`} /> : <StatusBadge kind="ok" label={`${Math.round(share * 100)}% used`} />}
                </td>
                <td title={formatTime(q.resetAt)}>{q.resetAt ? formatDuration(q.resetAt - now) : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
