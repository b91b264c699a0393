import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import type { Account } from '../../api-types.js';
import { ErrorNotice } from '../../components/notice.js';
import { useAction } from '../../lib/use-action.js';

/** Accounts in drain order: by provider, then higher `priority` first, then file name (as the engine orders them). */
export function inDrainOrder(accounts: readonly Account[]): Account[] {
  return [...accounts].sort((a, b) => a.provider.localeCompare(b.provider) || b.priority - a.priority || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** The account's priority in its provider's drain order (higher drains first), set with a number. */
export function AccountPriority(props: { account: Account; onChange: () => void }) {
  const a = props.account;
  const [value, setValue] = useState(String(a.priority));
  const act = useAction(async () => {
    await api.setAccountPriority(a.provider, a.accountId, Number(value));
    props.onChange();
    return true;
  });
  const valid = /^-?\d{1,4}$/.test(value.trim()) && Math.abs(Number(value)) <= 1000;
  const changed = valid && Number(value) !== a.priority;
  return (
    <form
      class="acc-priority"
      onSubmit={(e) => {
        e.preventDefault();
        if (changed) void act.run();
      }}
    >
      <label>
        Priority{' '}
        <input
          type="number"
          min={-1000}
          max={1000}
          step={1}
          value={value}
          aria-label={`Priority of ${a.label}`}
          title="Higher drains first (fill-first) and is tried first; ties go by file name"
          onInput={(e) => setValue((e.target as HTMLInputElement).value)}
        />
      </label>
      <button type="submit" class="btn btn-small" disabled={!changed || act.busy}>Set</button>
      <ErrorNotice error={act.error} context={`${a.provider} ${a.accountId} priority`} onDismiss={act.clear} />
    </form>
  );
}
