import YAML, { isMap, type Document } from 'yaml';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { writeBackup } from '../../infra/backup.js';
import { lockFile } from '../../infra/file-lock.js';
import { errorMessage, readTextIfExists } from '../../infra/file-stat.js';
import type { Paths } from '../../infra/paths.js';

export interface ProxyAuth {
  apiKey: string;
  managementSecret: string;
}

/** Backups of proxy/config.yaml are `backups/proxy-config.<stamp>.yaml`; the proxy area reuses this. */
export const PROXY_CONFIG_BACKUP = { base: 'proxy-config', suffix: '.yaml', keep: 20 } as const;

/** The proxy YAML of spec 2.6 + decisions §4 as the app first writes it. */
export function defaultProxyConfig(auth: ProxyAuth): Record<string, unknown> {
  return {
    server: { port: 8317, host: '127.0.0.1' },
    auth: { api_key: auth.apiKey, management_secret: auth.managementSecret },
    providers: {},
    upstreams: [],
  };
}

/** proxy/config.yaml exists but is not a YAML mapping; it is left alone rather than replaced. */
export class ProxyConfigUnreadableError extends Error {}

export type ProxyAuthSyncOutcome = 'created' | 'updated' | 'unchanged';

/**
 * Makes `auth.api_key` and `auth.management_secret` of proxy/config.yaml hold `auth`, creating the
 * file with the default shape when it is missing. Only those two keys change: comments, key order
 * and every other user edit survive (yaml Document API). A changed file is backed up first and
 * written atomically with mode 0600 (it holds secrets).
 */
export async function writeProxyAuth(paths: Paths, auth: ProxyAuth, now: Date = new Date()): Promise<ProxyAuthSyncOutcome> {
  return lockFile(paths.proxyConfig, async () => {
    const before = await readTextIfExists(paths.proxyConfig);
    let text: string;
    if (before === null) {
      text = newConfigText(auth);
    } else {
      // No change, no write: re-serialising would reformat a hand-edited file for nothing.
      const doc = parseProxyConfig(before, paths.proxyConfig);
      if (!applyAuth(doc, auth)) return 'unchanged';
      text = doc.toString();
    }
    if (before !== null) {
      await writeBackup(before, { backupsDir: paths.backupsDir, home: paths.configDir, ...PROXY_CONFIG_BACKUP, now });
    }
    await writeFileAtomic(paths.proxyConfig, text, { mode: 0o600, dirMode: 0o700 });
    return before === null ? 'created' : 'updated';
  });
}

function newConfigText(auth: ProxyAuth): string {
  const doc = new YAML.Document(defaultProxyConfig(auth));
  doc.commentBefore =
    ' Proxy config written by Switchboard. Edit freely: the app only rewrites auth.api_key and\n' +
    ' auth.management_secret (from the token settings) and keeps everything else.';
  return doc.toString();
}

function parseProxyConfig(text: string, file: string): Document {
  const doc = YAML.parseDocument(text);
  if (doc.errors.length > 0) {
    throw new ProxyConfigUnreadableError(`${file} is not valid YAML: ${errorMessage(doc.errors[0]).split('\n')[0]}`);
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw new ProxyConfigUnreadableError(`${file}: the top level must be a mapping`);
  }
  return doc;
}

/** Sets the two auth keys where they differ; true when the document changed. */
function applyAuth(doc: Document, auth: ProxyAuth): boolean {
  // An empty document (only comments) gets its map from set(); a non-map `auth` (say `auth:`
  // left empty) is replaced whole, as there is nothing in it to keep.
  if (!isMap(doc.get('auth', true))) {
    doc.set('auth', doc.createNode({ api_key: auth.apiKey, management_secret: auth.managementSecret }));
    return true;
  }
  const changedKey = setIfDifferent(doc, ['auth', 'api_key'], auth.apiKey);
  const changedSecret = setIfDifferent(doc, ['auth', 'management_secret'], auth.managementSecret);
  return changedKey || changedSecret;
}

/** Leaves an equal value's node (its quoting style and comments) untouched. */
function setIfDifferent(doc: Document, path: string[], value: string): boolean {
  if (doc.getIn(path) === value) return false;
  doc.setIn(path, value);
  return true;
}
