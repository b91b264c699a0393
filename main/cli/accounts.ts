import type { AccountView } from '../services/accounts/account-view.js';
import { AccountsError } from '../services/accounts/errors.js';
import { accountServices } from './account-services.js';
import { CliError } from './args.js';
import { processIo, type CliIo } from './io.js';

export const ACCOUNTS_USAGE = `Usage: switchboard accounts [command]

Subscription accounts in {config_dir}/proxy/auth/ (sign in with 'switchboard login').

Commands:
  list [--json]                      every account with its status (the default)
  pause <provider> <account>         take an account out of routing ("disabled": true)
  resume <provider> <account>        put it back
  remove <provider> <account>        remove it (the file is kept in backups/auth/)
  import <codex|ghcp|gemini|kiro> [file]         import the sign-in of the provider's own CLI
                                     (~/.codex/auth.json, ~/.config/github-copilot/apps.json)
`;

/** `switchboard accounts`: 0 done, 1 refused by the service (not found, no credentials), 2 usage. */
export async function runAccounts(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo): Promise<number> {
  const [sub = 'list', ...rest] = argv;
  const { services } = await accountServices(env);
  const accounts = services.providerAccounts;
  try {
    switch (sub) {
      case 'list': {
        const json = rest.includes('--json');
        const stray = rest.find((a) => a !== '--json');
        if (stray) throw new CliError(`unexpected argument '${stray}' for 'accounts list'`);
        const { accounts: list } = await accounts.list();
        io.out(json ? `${JSON.stringify({ accounts: list }, null, 2)}\n` : table(list, services.ctx.paths.proxyAuthDir));
        return 0;
      }
      case 'pause':
      case 'resume':
      case 'remove': {
        const [provider, accountId, stray] = rest;
        if (!provider || !accountId) throw new CliError(`usage: switchboard accounts ${sub} <provider> <account>`);
        if (stray) throw new CliError(`unexpected argument '${stray}' for 'accounts ${sub}'`);
        const answer = await accounts[sub](provider, accountId);
        const verb = { pause: 'Paused', resume: 'Resumed', remove: 'Removed' }[sub];
        io.out(`${verb} ${provider} account ${answer.account.label}${'backupPath' in answer ? ` (kept as ${answer.backupPath})` : ''}\n`);
        return 0;
      }
      case 'import': {
        const [provider, file, stray] = rest;
        if (!provider) throw new CliError('usage: switchboard accounts import <codex|ghcp|gemini|kiro> [file]');
        if (stray) throw new CliError(`unexpected argument '${stray}' for 'accounts import'`);
        const { account } = await accounts.importFrom(provider, file);
        io.out(`Imported ${account.provider} account ${account.label} (proxy/auth/${account.file})\n`);
        return 0;
      }
      default:
        throw new CliError(`unknown accounts command '${sub}'\n\n${ACCOUNTS_USAGE}`);
    }
  } catch (err) {
    if (!(err instanceof AccountsError)) throw err;
    if (err.code === 'invalid-provider' || err.code === 'invalid-account') throw new CliError(err.detail ?? err.message);
    io.err(`switchboard: ${err.detail ?? err.message}\n`);
    return 1;
  } finally {
    await accounts.stop();
  }
}

function table(list: AccountView[], dir: string): string {
  if (list.length === 0) return `No accounts in ${dir} (sign in with: switchboard login codex | ghcp)\n`;
  const rows = list.map((a) => [a.provider, a.accountId, a.status, a.expiresAt ? new Date(a.expiresAt).toISOString().slice(0, 16).replace('T', ' ') : '-', a.label, a.lastError ?? '']);
  const head = ['PROVIDER', 'ACCOUNT', 'STATUS', 'EXPIRES (UTC)', 'LABEL', 'LAST ERROR'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd()}\n`;
  return line(head) + rows.map(line).join('');
}
