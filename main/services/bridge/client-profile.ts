import { writeFileAtomic } from '../../infra/atomic-write.js';
import { lockFile } from '../../infra/file-lock.js';
import { readTextIfExists } from '../../infra/file-stat.js';
import type { BridgeSection } from '../app-config/schema.js';
import { isRecord } from '../../infra/json-checks.js';

/**
 * `{config_dir}/cursor.settings.json`: the profile an agent uses to talk to the bridge daemon
 * (spec 2.8 "settings override"). It is an ordinary profile file, so it also shows as the
 * `cursor` profile in the API and dashboard. Each daemon start rewrites only the keys the
 * bridge owns; whatever else the user put there stays.
 */
export async function writeClientProfile(file: string, settings: BridgeSection, port: number, token: string): Promise<void> {
  await lockFile(file, async () => {
    const current = parseObject(await readTextIfExists(file));
    const env = { ...(isRecord(current.env) ? current.env : {}), ...bridgeEnv(settings, port, token) };
    await writeFileAtomic(file, `${JSON.stringify({ ...current, env }, null, 2)}\n`, { mode: 0o600 });
  });
}

/** The env keys the bridge owns; empty tier overrides are left out rather than written blank. */
export function bridgeEnv(settings: BridgeSection, port: number, token: string): Record<string, string> {
  const env: Record<string, string> = {
    PROVIDER_BASE_URL: `http://127.0.0.1:${port}`,
    PROVIDER_AUTH_TOKEN: token,
    PROVIDER_MODEL: settings.model,
  };
  const tiers = { PROVIDER_DEFAULT_OPUS_MODEL: settings.opus_model, PROVIDER_DEFAULT_SONNET_MODEL: settings.sonnet_model, PROVIDER_DEFAULT_HAIKU_MODEL: settings.haiku_model };
  for (const [key, value] of Object.entries(tiers)) if (value.trim()) env[key] = value.trim();
  return env;
}

function parseObject(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : {};
  } catch {
    return {}; // a damaged override is replaced: it is regenerated on every start anyway
  }
}
