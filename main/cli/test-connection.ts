import { SettingsError } from '../services/settings/errors.js';
import { CliError } from './args.js';
import { processIo, type CliIo } from './io.js';
import { withProviderServices } from './provider-services.js';

export const TEST_USAGE = `Usage: switchboard test [profile]

Makes one real, minimal request with a profile's env (the default profile when none is named):
the models list, else a one-token message. Prints the status, the latency, the models the
endpoint lists and, when it fails, what to do. Exit code 0 when the connection works, 1 when not.

Options:
  -h, --help     show this help
`;

/** `switchboard test [profile]`: POST /api/settings/:profile/test from the terminal. */
export async function runTest(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (rest.length > 0) throw new CliError(`unexpected argument '${rest[0]}' for 'test'`);
  if (name?.startsWith('-')) throw new CliError(`unknown option '${name}' for 'test'`);
  return withProviderServices(env, async (services) => {
    const profile = name ?? (await services.profiles.storedDefault());
    if (!profile) throw new CliError('no profile named and no default profile set (run `switchboard use <profile>` or name one)');
    let result;
    try {
      result = await services.providers.testProfile(profile);
    } catch (err) {
      if (err instanceof SettingsError) throw new CliError(err.kind === 'not-found' ? `unknown profile '${profile}'` : err.message);
      throw err;
    }
    const status = result.status !== null ? ` (${result.status})` : '';
    io.out(`${profile}: ${result.ok ? 'OK' : 'FAILED'}${status}, ${result.latencyMs} ms. ${result.message}\n`);
    if (result.models && result.models.length > 0) io.out(`Models: ${result.models.join(', ')}\n`);
    return result.ok ? 0 : 1;
  });
}
