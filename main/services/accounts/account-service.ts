import { errorMessage } from '../../infra/file-stat.js';
import { ConfigFileError, deleteIn, type AppConfigStore } from '../app-config/store.js';
import { TokensError } from '../tokens/errors.js';

export const DEFAULT_ACCOUNT_RESET_MESSAGE = 'Default account reset';

/** The default account is the top-level `default` key of config.yaml (the default profile's name). */
export class AccountService {
  constructor(private readonly appConfig: AppConfigStore) {}

  /** Removes `default`; answers the same when none was set (decisions §2). */
  async resetDefault(): Promise<{ success: true; message: string }> {
    try {
      await this.appConfig.update((doc) => deleteIn(doc, ['default']));
    } catch (err) {
      if (err instanceof ConfigFileError) throw err;
      throw new TokensError('write-failed', errorMessage(err));
    }
    return { success: true, message: DEFAULT_ACCOUNT_RESET_MESSAGE };
  }
}
