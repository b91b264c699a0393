import { createServices, type Services } from '../services/index.js';
import { ConfigFileError } from '../services/app-config/store.js';
import { CliError } from './args.js';
import { ProfileSource } from './profile-source.js';

/**
 * The app's services on {config_dir}, for `add` and `test`: the same code paths as the API
 * (catalogue, proxy config file, settings store). A proxy the app left running is adopted, and
 * one the command starts keeps running after it exits, for the app to adopt in turn.
 */
export async function withProviderServices<T>(env: NodeJS.ProcessEnv, use: (services: Services) => Promise<T>): Promise<T> {
  const source = new ProfileSource(env);
  let services: Services;
  try {
    services = await createServices(source.ctx);
  } catch (err) {
    if (err instanceof ConfigFileError) throw new CliError(`config.yaml is invalid: ${err.message}`);
    throw err;
  }
  try {
    await services.proxy.control.adopt().catch(() => false);
    return await use(services);
  } finally {
    await services.bridge.shutdown(true);
    await services.proxy.shutdown(true);
    await services.usage.stop();
  }
}
