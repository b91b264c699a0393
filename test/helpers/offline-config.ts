import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Tests never reach the internet: every upstream the app could call on its own (release feed,
 * quota hosts, bridge catalog) points at a closed loopback port unless a test sets its own.
 */
export const OFFLINE_URL = 'http://127.0.0.1:9';

export const OFFLINE_CONFIG_YAML = `# written by the test harness: no upstream is reachable
proxy:
  update_feed_url: ${OFFLINE_URL}/releases/latest
  quota_endpoints:
    agy: ${OFFLINE_URL}
    gemini: ${OFFLINE_URL}
    codex: ${OFFLINE_URL}
    ghcp: ${OFFLINE_URL}
    kiro: ${OFFLINE_URL}
    iflow: ${OFFLINE_URL}
cursor:
  upstream_url: ${OFFLINE_URL}
`;

/**
 * GitHub's origins (the managed CLIProxyAPI's release feed) sent to the closed port too. Kept out
 * of OFFLINE_CONFIG_YAML, to which tests append a `network:` section of their own (a YAML mapping
 * may not name a key twice); the default test home written by writeOfflineConfig has it.
 */
export const OFFLINE_NETWORK_YAML = `network:
  origin_overrides:
    https://api.github.com: ${OFFLINE_URL}
    https://github.com: ${OFFLINE_URL}
`;

/** Writes the offline config.yaml into `home` unless the test already wrote one. */
export async function writeOfflineConfig(home: string): Promise<void> {
  const file = path.join(home, 'config.yaml');
  await fs.mkdir(home, { recursive: true, mode: 0o700 });
  try {
    await fs.writeFile(file, OFFLINE_CONFIG_YAML + OFFLINE_NETWORK_YAML, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}
