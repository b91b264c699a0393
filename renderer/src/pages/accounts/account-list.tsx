import { api } from '../../api.js';
import type { Account, Quota } from '../../api-types.js';
import { Empty, ErrorNotice, Notice } from '../../components/notice.js';
import { StatusBadge, type StatusKind } from '../../components/status-badge.js';
import { errorText, formatDuration, formatTime } from '../../lib/format.js';
import { useNow } from '../../lib/live.js';
import { usedShare } from '../../lib/quota-accounts.js';
import { useAction, type Action } from '../../lib/use-action.js';
import { useResource } from '../../lib/use-resource.js';
import { providerDisplay, servedNote, type ServedBy } from '../../lib/account-providers.js';
import { href } from '../../lib/router.js';
import { AccountPriority, inDrainOrder } from './account-priority.js';
import { ProviderBadge } from './provider-badge.js';

const STATUS: Record<Account['status'], [StatusKind, string]> = {
  active: ['ok', 'active'],
  paused: ['off', 'paused'],
  expired: ['warn', 'expired'],
  error: ['bad', 'error'],
};

/** Providers whose tokens the CLIProxyAPI binary refreshes, not Switchboard (docs/accounts.md): no Refresh button. */

/** Every account with its status, expiry, models, quota and actions, in each provider's drain order. */
export function AccountList(props: { accounts: Account[]; onChange: () => void }) {
  if (props.accounts.length === 0) return <Empty>No accounts yet. Sign in above, or import the sign-in of the Codex CLI, Copilot, the Gemini CLI or the Kiro IDE.</Empty>;
  return (
    <ul class="acc-list" data-testid="account-list">
      {inDrainOrder(props.accounts).map((a) => (
        <AccountRow key={a.file} account={a} onChange={props.onChange} />
      ))}
    </ul>
  );
}

function AccountRow(props: { account: Account; onChange: () => void }) {
  const a = props.account;
  const now = useNow(30_000);
  const cooling = a.coolingUntil !== undefined && a.coolingUntil > now && a.status === 'active';
  const servedBy = providerDisplay(a.provider).servedBy;
  const discontinued = servedBy === 'discontinued';
  const [kind, label] = discontinued ? (['off', 'discontinued'] as [StatusKind, string]) : cooling ? (['warn', 'resting'] as [StatusKind, string]) : STATUS[a.status];
  const note = servedNote(a.provider);
  const act = useAction(async (action: RowAction): Promise<string | undefined> => {
    if (action === 'use') {
      // One step (issue 29.4): the account's profile goes into Claude Code's settings, and the
      // proxy it routes through is started when it is stopped.
      await api.applyClaudeCode(a.provider);
      const started = await api.proxyStart();
      return `Claude Code now uses the ${a.provider} profile through the proxy on port ${started.port}${started.started ? ' (started now)' : ''}.`;
    }
    if (action === 'remove') {
      if (!window.confirm(`Remove the ${a.provider} account ${a.label}? Its file is kept in backups/auth/.`)) return undefined;
      await api.removeAccount(a.provider, a.accountId);
    } else {
      await api.accountAction(a.provider, a.accountId, action);
    }
    props.onChange();
    return action;
  });
  return (
    <li class="card acc-row" data-testid={`account-${a.provider}-${a.accountId}`}>
      <div class="acc-row-head">
        <ProviderBadge provider={a.provider} />
        <strong class="acc-label">{a.label}</strong>
        <StatusBadge kind={kind} label={label} />
      </div>
      <p class="muted acc-meta">
        {a.expiresAt ? <span title={formatTime(a.expiresAt)}>token {a.expiresAt > now ? `expires in ${formatDuration(a.expiresAt - now)}` : 'expired'}</span> : <span>token does not expire</span>}
        {a.lastRefresh ? <span> · refreshed {formatTime(a.lastRefresh)}</span> : null}
        {a.models.length > 0 ? <span> · models {a.models.join(', ')}</span> : null}
      </p>
      {note ? (
        <p class={`acc-served acc-served-${servedBy}`} data-testid="account-served">
          {note}
          {servedBy === 'cliproxy' ? (
            <>
              {' '}
              <a href={href('proxy', 'status')}>Manage CLIProxyAPI</a>
            </>
          ) : null}
        </p>
      ) : null}
      {a.lastError ? <p class="acc-error" role="alert">{a.lastError}</p> : null}
      {cooling ? (
        <p class="acc-cooling" data-testid="account-cooling" title={formatTime(a.coolingUntil)}>
          {a.coolingReason} until {clock(a.coolingUntil!)}: the next account takes its requests
        </p>
      ) : null}
      {a.status !== 'paused' && !discontinued ? <QuotaBars provider={a.provider} accountId={a.accountId} /> : null}
      <ErrorNotice error={act.error} context={`${a.provider} ${a.accountId}`} onDismiss={act.clear} />
      {act.result && act.result.startsWith('Claude Code') ? (
        <Notice tone="success" onDismiss={act.clear}>
          {act.result}
        </Notice>
      ) : null}
      <RowActions account={a} act={act} servedBy={servedBy} onChange={props.onChange} />
    </li>
  );
}

type RowAction = 'pause' | 'resume' | 'refresh' | 'remove' | 'use';

/** A discontinued provider's file can only be removed; the binary refreshes the sign-ins it serves. */
function RowActions(props: { account: Account; act: Action<[RowAction], string | undefined>; servedBy: ServedBy; onChange: () => void }) {
  const { account: a, act, servedBy } = props;
  const remove = (
    <button type="button" class="btn btn-small btn-danger" disabled={act.busy} onClick={() => void act.run('remove')}>Remove</button>
  );
  if (servedBy === 'discontinued') return <div class="actions">{remove}</div>;
  return (
    <div class="actions">
      {a.status === 'paused' ? (
        <button type="button" class="btn btn-small" disabled={act.busy} onClick={() => void act.run('resume')}>Resume</button>
      ) : (
        <button type="button" class="btn btn-small" disabled={act.busy} onClick={() => void act.run('pause')}>Pause</button>
      )}
      {servedBy === 'engine' ? (
        <button type="button" class="btn btn-small" disabled={act.busy} onClick={() => void act.run('refresh')}>Refresh</button>
      ) : null}
      <button type="button" class="btn btn-small" disabled={act.busy} onClick={() => void act.run('use')} title={`Apply the ${a.provider} profile to Claude Code and start the proxy`}>
        Use with Claude Code
      </button>
      {remove}
      <AccountPriority key={a.priority} account={a} onChange={props.onChange} />
    </div>
  );
}

/** "14:05": the time of day a rest ends (the full date is in the title). */
function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** The quota route's windows for this account, as bars; a failure says why in one line. */
function QuotaBars(props: { provider: string; accountId: string }) {
  const quota = useResource<Quota>(() => api.quota(props.provider, props.accountId), [props.provider, props.accountId]);
  if (quota.error) return <p class="muted acc-quota">Quota unavailable: {errorText(quota.error)}</p>;
  if (!quota.data || quota.data.quotas.length === 0) return null;
  return (
    <ul class="acc-quota">
      {quota.data.quotas.map((q) => (
        <li key={q.model}>
          <code>{q.model}</code>
          <meter min={0} max={1} low={0.7} high={0.9} optimum={0} value={usedShare(q)} aria-label={`${q.model} used`} />
          <span class="muted">
            {quota.data!.unit === 'percent' ? `${q.used}% used` : `${q.used} of ${q.limit} ${quota.data!.unit} used`}
            {q.resetAt ? ` · resets ${formatTime(q.resetAt)}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}
