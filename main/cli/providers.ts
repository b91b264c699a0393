import type { CatalogEntry } from '../services/providers/catalog.js';
import { ProviderCatalog } from '../services/providers/catalog.js';
import { CliError } from './args.js';
import { processIo, type CliIo } from './io.js';
import { ProfileSource } from './profile-source.js';

export const PROVIDERS_USAGE = `Usage: switchboard providers [--json]

Lists the provider catalogue (resources/providers.json plus {config_dir}/providers.json): id,
name, format (anthropic: Claude Code talks to it directly; openai: through the local proxy),
base URL and where to get a key. Add one with \`switchboard add <id>\`.

Options:
  --json         the catalogue as JSON (as GET /api/providers/catalog)
  -h, --help     show this help
`;

/** `switchboard providers`: the catalogue. */
export async function runProviders(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo): Promise<number> {
  const json = argv.includes('--json');
  const unknown = argv.find((a) => a !== '--json');
  if (unknown) throw new CliError(`unexpected argument '${unknown}' for 'providers'`);
  const source = new ProfileSource(env);
  const providers = await new ProviderCatalog(source.paths.configDir, source.ctx.logger).list();
  if (json) {
    io.out(`${JSON.stringify({ providers }, null, 2)}\n`);
    return 0;
  }
  io.out(formatCatalog(providers));
  return 0;
}

export function formatCatalog(providers: CatalogEntry[]): string {
  const idWidth = Math.max(...providers.map((p) => p.id.length));
  const nameWidth = Math.max(...providers.map((p) => p.name.length));
  const lines = providers.map((p) => {
    const key = p.keyRequired ? `key: ${p.keyUrl ?? 'your own'}` : 'no key needed';
    return `${p.id.padEnd(idWidth)}  ${p.name.padEnd(nameWidth)}  ${p.format.padEnd(9)}  ${p.baseUrl}  (${key})\n`;
  });
  return `${lines.join('')}\nAdd one: switchboard add <id>   (anthropic = direct; openai = through the local proxy)\n`;
}
