import fs from 'node:fs/promises';
import { appVersion } from '../../infra/app-version.js';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { errorMessage } from '../../infra/file-stat.js';
import { CLIPROXY_PLUS_FEED_URL, type ProxySection } from '../app-config/schema.js';
import type { ServiceContext } from '../context.js';
import { engineKind } from './engine-launch.js';
import { cleanVersion, compareVersions, parseVersion } from './version-compare.js';

export interface UpdateCheckResult {
  hasUpdate: boolean;
  currentVersion: string;
  latestVersion: string;
  fromCache: boolean;
  /** When the feed gave the answer this reflects (ms); null when no feed answer stands behind it. */
  checkedAt: number | null;
  /** Why this check did not reach the feed (absent when it did, or when a fresh cached answer was enough). */
  error?: string;
}

/** The check was not made on purpose: the built-in engine with the default feed (see check()). */
export const BUILTIN_NOT_CHECKED =
  'Not checked: the built-in engine is updated with Switchboard itself, and the default feed lists another product (set proxy.update_feed_url to a feed of your own to compare against it)';

interface CacheRecord {
  feedUrl: string;
  latestVersion: string;
  checkedAt: number;
}

export const UPDATE_CACHE_TTL_MS = 60 * 60_000;
const FETCH_TIMEOUT_MS = 5_000;

/**
 * The proxy's update check (decisions §4, revised): latest release from `proxy.update_feed_url`,
 * cached one hour in .cache/update-check.json (`force` skips a fresh cache). Never fails: offline
 * it falls back to the last cached answer (any age), and with nothing cached it reports no update;
 * either way the answer says when the feed last answered (`checkedAt`) and why it was not reached
 * now (`error`), so nobody reads "up to date" into a check that checked nothing.
 */
export class UpdateChecker {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly fetchTimeoutMs = FETCH_TIMEOUT_MS,
  ) {}

  async check(options: { force?: boolean } = {}): Promise<UpdateCheckResult> {
    let section: ProxySection;
    try {
      section = (await this.ctx.appConfig.read()).config.proxy;
    } catch (err) {
      return noUpdate(appVersion(), `Not checked: config.yaml could not be read (${errorMessage(err)})`);
    }
    const currentVersion = currentVersionOf(section);
    // The default feed lists CLIProxyAPIPlus releases: comparing the built-in engine (versioned
    // with Switchboard) against it would announce an update forever. Ask only when the user
    // runs that binary or has pointed the feed somewhere on purpose.
    if (engineKind(section) === 'builtin' && section.update_feed_url === CLIPROXY_PLUS_FEED_URL) return noUpdate(currentVersion, BUILTIN_NOT_CHECKED);
    const feedUrl = section.update_feed_url;
    const cache = await this.readCache(feedUrl);
    const now = this.ctx.clock.now();
    if (!options.force && cache && now >= cache.checkedAt && now - cache.checkedAt < UPDATE_CACHE_TTL_MS) {
      return answer(currentVersion, cache.latestVersion, true, cache.checkedAt);
    }
    try {
      const latestVersion = await this.fetchLatest(feedUrl);
      await this.writeCache({ feedUrl, latestVersion, checkedAt: now });
      return answer(currentVersion, latestVersion, false, now);
    } catch (err) {
      const why = feedFailure(err, feedUrl, this.fetchTimeoutMs);
      this.ctx.logger.info(`proxy update check failed: ${why}`);
      return cache ? { ...answer(currentVersion, cache.latestVersion, true, cache.checkedAt), error: why } : noUpdate(currentVersion, why);
    }
  }

  private async fetchLatest(feedUrl: string): Promise<string> {
    const res = await fetch(feedUrl, {
      headers: { accept: 'application/vnd.github+json, application/json', 'user-agent': `switchboard/${appVersion()}` },
      signal: AbortSignal.timeout(this.fetchTimeoutMs),
    });
    if (!res.ok) throw new Error(`the feed answered HTTP ${res.status}`);
    const latest = latestTag(await res.json().catch(() => null));
    if (!latest) throw new Error('the feed answer has no readable tag_name');
    return latest;
  }

  private async readCache(feedUrl: string): Promise<CacheRecord | null> {
    try {
      const raw = JSON.parse(await fs.readFile(this.ctx.paths.updateCheckCache, 'utf8')) as Partial<CacheRecord>;
      const valid = raw.feedUrl === feedUrl && typeof raw.latestVersion === 'string' && parseVersion(raw.latestVersion) && typeof raw.checkedAt === 'number';
      return valid ? (raw as CacheRecord) : null;
    } catch {
      return null;
    }
  }

  private async writeCache(record: CacheRecord): Promise<void> {
    try {
      await writeFileAtomic(this.ctx.paths.updateCheckCache, JSON.stringify(record) + '\n', { mode: 0o600 });
    } catch (err) {
      this.ctx.logger.warn(`could not write the update-check cache: ${errorMessage(err)}`);
    }
  }
}

/** Built-in engine: Switchboard's own version; external binary: `proxy.binary_version` (it cannot be asked). */
export function currentVersionOf(section: ProxySection): string {
  if (engineKind(section) === 'builtin') return appVersion();
  return section.binary_version.trim() ? cleanVersion(section.binary_version) : 'unknown';
}

/**
 * A GitHub-style "latest release" object (`tag_name`), or a release list, where the highest
 * readable tag of a non-draft, non-prerelease entry wins.
 */
function latestTag(body: unknown): string | null {
  const tags = (Array.isArray(body) ? body : [body])
    .filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && r.draft !== true && r.prerelease !== true)
    .map((r) => r.tag_name)
    .filter((t): t is string => typeof t === 'string' && parseVersion(t) !== null)
    .map(cleanVersion);
  return tags.reduce<string | null>((best, t) => (best === null || (compareVersions(t, best) ?? 0) > 0 ? t : best), null);
}

function answer(currentVersion: string, latestVersion: string, fromCache: boolean, checkedAt: number): UpdateCheckResult {
  const cmp = compareVersions(latestVersion, currentVersion);
  return { hasUpdate: cmp !== null && cmp > 0, currentVersion, latestVersion, fromCache, checkedAt };
}

/** Nothing known about the latest version: the spec's "no update", with the reason. */
function noUpdate(currentVersion: string, error: string): UpdateCheckResult {
  return { hasUpdate: false, currentVersion, latestVersion: currentVersion, fromCache: false, checkedAt: null, error };
}

/** Why the feed gave no usable answer, in words a user can act on ("fetch failed" is not one). */
function feedFailure(err: unknown, feedUrl: string, timeoutMs: number): string {
  const host = hostOf(feedUrl);
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return `${host} did not answer within ${timeoutMs / 1000} s`;
  const code = (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  if (typeof code === 'string') return `could not reach ${host} (${code})`;
  return `${host}: ${errorMessage(err)}`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
