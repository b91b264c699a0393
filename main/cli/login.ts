import readline from 'node:readline';
import { AccountsError } from '../services/accounts/errors.js';
import type { ProviderAccountsService } from '../services/accounts/accounts-service.js';
import type { SignInState } from '../services/accounts/sign-in.js';
import type { AppEvents } from '../services/events.js';
import { accountServices } from './account-services.js';
import { CliError } from './args.js';
import { processIo, type CliIo } from './io.js';
import { openInBrowser } from './open-url.js';

export const LOGIN_USAGE = `Usage: switchboard login <codex|ghcp|agy|gemini|kiro> [--device | --no-browser] [--acknowledge] [--project <id>]
       switchboard login kiro [--idc --start-url <url> [--region <aws-region>]]

Signs in a subscription account and saves it in {config_dir}/proxy/auth/ (the first account of a
provider also creates the profile of that name, routed through the proxy).

  codex            ChatGPT: opens the browser; the sign-in returns to 127.0.0.1:1455
  ghcp             GitHub Copilot: prints a code to type at github.com/login/device
  agy              Antigravity: asks first to acknowledge the ban risk (y/N), once; then Google
                   in the browser, back on 127.0.0.1:51121
  gemini           Gemini Code Assist Standard/Enterprise: Google in the browser, back on
                   127.0.0.1:8085; needs --project (consumer sign-in was retired on 2026-06-18;
                   others: switchboard accounts import gemini)
  kiro             Kiro: AWS Builder ID, prints a code to type at AWS; runs through the managed
                   CLIProxyAPI (install it first: switchboard cliproxy install --backend plus)
Options:
  --acknowledge    agy: accept the ban risk without the question
  --project <id>   gemini: the Google Cloud project of the Code Assist licence
  --device         codex: sign in with a code instead of the browser callback
  --no-browser     print the address instead of opening it; on another machine, paste the
                   address the browser ends up on (http://localhost:1455/auth/callback?...) here
  --idc            kiro: IAM Identity Center instead of Builder ID
  --start-url <u>  kiro --idc: your organisation's start address (https://….awsapps.com/start)
  --region <r>     kiro --idc: the Identity Center's AWS region (default us-east-1)
`;

/** `--start-url` and `--region` take a value (`--x v` or `--x=v`); the rest are switches. */
function parseLoginArgs(argv: string[]): { flags: Set<string>; values: Map<string, string>; positional: string[] } {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [name, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (name === '--start-url' || name === '--region') {
      const value = inline ?? argv[++i];
      if (value === undefined || value.startsWith('--')) throw new CliError(`option '${name}' needs a value`);
      values.set(name, value);
    } else if (arg.startsWith('-')) flags.add(arg);
    else positional.push(arg);
  }
  return { flags, values, positional };
}

export interface LoginDeps {
  io?: CliIo;
  /** Where a pasted redirect is read from (stdin). */
  input?: NodeJS.ReadableStream;
  open?: (url: string) => Promise<boolean>;
}

/** `switchboard login`: 0 signed in, 1 the sign-in failed or expired, 2 a usage error. */
export async function runLogin(argv: string[], env: NodeJS.ProcessEnv = process.env, deps: LoginDeps = {}): Promise<number> {
  const io = deps.io ?? processIo;
  const { projectId, rest } = takeProject(argv);
  const { flags, values, positional } = parseLoginArgs(rest);
  const [provider, ...extra] = positional;
  for (const f of flags) if (f !== '--device' && f !== '--no-browser' && f !== '--acknowledge' && f !== '--idc') throw new CliError(`unknown option '${f}' for 'login'`);
  if (!provider) throw new CliError(`missing provider\n\n${LOGIN_USAGE}`);
  if (extra.length > 0) throw new CliError(`unexpected argument '${extra[0]}' for 'login'`);
  if (flags.has('--device') && flags.has('--no-browser')) throw new CliError('choose one of --device and --no-browser');
  const idc = flags.has('--idc');
  if ((idc || values.size > 0) && provider !== 'kiro') throw new CliError('--idc, --start-url and --region are for kiro');
  if (values.size > 0 && !idc) throw new CliError('--start-url and --region go with --idc');
  if (idc && !values.has('--start-url')) throw new CliError('kiro --idc needs --start-url <your organisation\'s https start address>');
  const { ctx, services } = await accountServices(env);
  const accounts = services.providerAccounts;
  // Kiro signs in through the managed binary; one this command started is stopped again at the end.
  const binaryWasRunning = provider === 'kiro' ? await services.cliproxy.isRunning() : true;
  try {
    const method = idc ? 'idc' : flags.has('--device') || provider === 'ghcp' || provider === 'kiro' ? 'device' : 'browser';
    const input = deps.input ?? process.stdin;
    const options = { ...(idc ? { startUrl: values.get('--start-url'), region: values.get('--region') } : {}), ...(projectId === undefined ? {} : { projectId }) };
    const start = await accounts.signIn(provider, method, flags.has('--acknowledge'), options).catch(async (err: unknown) => {
      if (!(err instanceof AccountsError) || err.code !== 'acknowledgement-required') return rethrow(err);
      io.out(`${err.detail ?? err.message}\nContinue? [y/N] `);
      const answer = await readLine(input);
      if (!/^y(es)?$/i.test(answer.trim())) throw new CliError('not acknowledged; nothing was signed in');
      return accounts.signIn(provider, method, true, options).catch(rethrow);
    });
    const finished = waitForEnd(ctx.events, start.signInId);
    if (start.userCode) {
      io.out(`Open ${start.url} and enter the code: ${start.userCode}\n`);
    } else {
      io.out(`Sign in at:\n  ${start.url}\n`);
      io.out('Waiting for the browser to come back to Switchboard (or paste the address it ends up on here)...\n');
    }
    if (!flags.has('--no-browser') && (await (deps.open ?? openInBrowser)(start.url))) io.out('(opened in your browser)\n');
    const stopReading = start.userCode ? () => undefined : readPastes(input, accounts, start.signInId, io);
    const state = await finished;
    stopReading();
    return report(state, io);
  } catch (err) {
    if (err instanceof AccountsError) throw new CliError(err.detail ?? err.message);
    throw err;
  } finally {
    await accounts.stop();
    if (!binaryWasRunning) await services.cliproxy.stop().catch(() => undefined);
  }
}

/** `--project <id>` or `--project=<id>`, taken out of the arguments. */
function takeProject(argv: string[]): { projectId?: string; rest: string[] } {
  const rest: string[] = [];
  let projectId: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--project') {
      const value = argv[++i];
      if (value === undefined || value.startsWith('-')) throw new CliError("option '--project' needs a Google Cloud project id");
      projectId = value;
    } else if (a.startsWith('--project=')) {
      projectId = a.slice('--project='.length);
    } else {
      rest.push(a);
    }
  }
  return { projectId, rest };
}

function report(state: SignInState, io: CliIo): number {
  if (state.status === 'ok' && state.account) {
    const a = state.account;
    io.out(`Signed in: ${a.provider} account ${a.label} (saved as proxy/auth/${a.file}).\n`);
    io.out(`Run Claude Code on it with: switchboard run ${a.provider}\n`);
    return 0;
  }
  io.err(`switchboard: sign-in ${state.status}: ${state.error ?? 'no reason given'}\n`);
  return 1;
}

/** Resolves with the sign-in's state once it is no longer waiting. */
function waitForEnd(events: AppEvents, signInId: string): Promise<SignInState> {
  return new Promise((resolve) => {
    const off = events.on('account', (e) => {
      if (e.signInId !== signInId || e.status === 'waiting') return;
      off();
      resolve({ status: e.status as SignInState['status'], ...(e.account ? { account: e.account as SignInState['account'] } : {}), ...(e.error ? { error: e.error } : {}) });
    });
  });
}

/** Each line that looks like a URL is tried as the pasted redirect; a refused one says why. */
function readPastes(input: NodeJS.ReadableStream, accounts: ProviderAccountsService, signInId: string, io: CliIo): () => void {
  const rl = readline.createInterface({ input, terminal: false });
  rl.on('line', (line) => {
    const text = line.trim();
    if (!/^https?:\/\//.test(text)) return;
    accounts.signInCallback(signInId, text).catch((err: unknown) => io.err(`switchboard: ${err instanceof AccountsError ? (err.detail ?? err.message) : String(err)}\n`));
  });
  return () => rl.close();
}

/** One line of the input ('' when it ends first). */
function readLine(input: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input, terminal: false });
    let done = false;
    const finish = (text: string) => {
      if (done) return;
      done = true;
      rl.close();
      resolve(text);
    };
    rl.once('line', finish);
    rl.once('close', () => finish(''));
  });
}

function rethrow(err: unknown): never {
  if (err instanceof AccountsError) throw new CliError(err.detail ?? err.message);
  throw err;
}
