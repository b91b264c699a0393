import { errorMessage } from '../infra/file-stat.js';
import type { AddProviderResult } from '../services/providers/providers-service.js';
import { ProvidersError } from '../services/providers/errors.js';
import { SettingsError } from '../services/settings/errors.js';
import { CliError } from './args.js';
import { processIo, type CliIo } from './io.js';
import { withProviderServices } from './provider-services.js';
import { readSecret } from './secret-input.js';

export const ADD_USAGE = `Usage: switchboard add <provider> [--key-stdin] [--name N] [--via proxy] [--base-url URL]

Adds a provider from the catalogue (\`switchboard providers\` lists them) in one step: a profile
named after it (or --name) that Claude Code can use. Anthropic-format providers are used directly;
OpenAI-format ones become an upstream of the local proxy plus a profile routed through it, and the
proxy is started (or restarted to load the upstream). The connection is tested and the result
printed. The key is read without echo from the terminal, or from stdin (--key-stdin, or a pipe).

Options:
  --key-stdin      read the key from stdin (one line)
  --name N         the profile's name (default: the provider's id)
  --via proxy      route an Anthropic-format provider through the local proxy too
  --base-url URL   another endpoint than the catalogue's (a region, a mirror)
  -h, --help       show this help
`;

export interface AddOptions {
  template: string;
  keyStdin: boolean;
  name?: string;
  via?: 'direct' | 'proxy';
  baseUrl?: string;
}

export function parseAddArgs(argv: string[]): AddOptions {
  let template: string | undefined;
  const options: Omit<AddOptions, 'template'> = { keyStdin: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('-')) throw new CliError(`${arg} needs a value`);
      return v;
    };
    if (arg === '--key-stdin') options.keyStdin = true;
    else if (arg === '--name') options.name = value();
    else if (arg === '--base-url') options.baseUrl = value();
    else if (arg === '--via') {
      const via = value();
      if (via !== 'proxy' && via !== 'direct') throw new CliError(`--via takes 'proxy' or 'direct', not '${via}'`);
      options.via = via;
    } else if (arg.startsWith('-')) throw new CliError(`unknown option '${arg}' for 'add'`);
    else if (template === undefined) template = arg;
    else throw new CliError(`unexpected argument '${arg}' for 'add'`);
  }
  if (!template) throw new CliError('name a provider: switchboard add <provider> (switchboard providers lists them)');
  return { template, ...options };
}

/** `switchboard add <provider>`: the same add as POST /api/providers. */
export async function runAdd(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CliIo = processIo,
  readKey: (prompt: string, fromStdin: boolean) => Promise<string> = (prompt) => readSecret(prompt),
): Promise<number> {
  const options = parseAddArgs(argv);
  return withProviderServices(env, async (services) => {
    const entry = await services.providers.catalog.find(options.template);
    if (!entry) throw new CliError(`unknown provider '${options.template}' (switchboard providers lists them)`);
    let apiKey: string | undefined;
    if (entry.keyRequired || options.keyStdin) {
      if (entry.keyUrl && !options.keyStdin) io.err(`Get a key at ${entry.keyUrl}\n`);
      apiKey = (await readKey(`API key for ${entry.name} (not shown): `, options.keyStdin)) || undefined;
    }
    let result: AddProviderResult;
    try {
      result = await services.providers.add({ template: options.template, apiKey, name: options.name, via: options.via, baseUrl: options.baseUrl });
    } catch (err) {
      if (err instanceof ProvidersError || err instanceof SettingsError) throw new CliError(err.message);
      throw new CliError(`could not add ${entry.name}: ${errorMessage(err)}`);
    }
    io.out(describeAdded(result));
    return result.test.ok ? 0 : 1;
  });
}

export function describeAdded(r: AddProviderResult): string {
  const lines = [`Added profile ${r.profile.name} (${r.profile.via === 'proxy' ? 'through the local proxy' : 'direct'}): ${r.profile.baseUrl}, model ${r.profile.models.default}`];
  if (r.upstream) lines.push(`Proxy upstream ${r.upstream.name}: ${r.upstream.baseUrl} (${r.upstream.models.join(', ')})`);
  if (r.proxy) lines.push(r.proxy.error ? `Proxy not started: ${r.proxy.error}` : `Proxy ${r.proxy.restarted ? 'restarted' : 'running'} with the new upstream`);
  lines.push(`Connection test: ${r.test.ok ? 'OK' : 'FAILED'}${r.test.status !== null ? ` (${r.test.status})` : ''}, ${r.test.latencyMs} ms. ${r.test.message}`);
  lines.push(`Use it: switchboard run ${r.profile.name}   (or make it the default: switchboard use ${r.profile.name})`);
  return `${lines.join('\n')}\n`;
}
