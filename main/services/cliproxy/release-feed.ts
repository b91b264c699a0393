import { overrideOrigin } from '../../infra/origin-overrides.js';
import { BACKENDS, type CliproxyBackend } from './backends.js';

export interface ReleaseAsset {
  name: string;
  url: string;
  size: number;
}

export interface Release {
  tag: string;
  version: string;
  assets: ReleaseAsset[];
}

export type Overrides = Readonly<Record<string, string>> | undefined;

/** GitHub's release JSON for the latest release, or for one tag (`v<version>`). */
export async function fetchRelease(backend: CliproxyBackend, version: string | null, overrides: Overrides): Promise<Release> {
  const repo = BACKENDS[backend].repo;
  const tag = version ? (version.startsWith('v') ? version : `v${version}`) : null;
  const path = tag ? `releases/tags/${encodeURIComponent(tag)}` : 'releases/latest';
  const url = overrideOrigin(`https://api.github.com/repos/${repo}/${path}`, overrides);
  const res = await fetch(url, { headers: { accept: 'application/vnd.github+json', 'user-agent': 'switchboard' } });
  if (!res.ok) throw new ReleaseFeedError(res.status === 404 ? 'not-found' : 'unreachable', `${url}: HTTP ${res.status}`);
  const body = (await res.json()) as { tag_name?: unknown; assets?: unknown };
  if (typeof body.tag_name !== 'string') throw new ReleaseFeedError('unreachable', `${url}: no tag_name`);
  const assets = Array.isArray(body.assets) ? body.assets : [];
  return {
    tag: body.tag_name,
    version: body.tag_name.replace(/^v/, ''),
    assets: assets.flatMap((a: { name?: unknown; size?: unknown }) =>
      typeof a?.name === 'string'
        ? [{ name: a.name, size: typeof a.size === 'number' ? a.size : 0, url: downloadUrl(repo, body.tag_name as string, a.name, overrides) }]
        : [],
    ),
  };
}

/** Assets are fetched from the stable download path (not browser_download_url) so overrides apply. */
export function downloadUrl(repo: string, tag: string, name: string, overrides: Overrides): string {
  return overrideOrigin(`https://github.com/${repo}/releases/download/${encodeURIComponent(tag)}/${encodeURIComponent(name)}`, overrides);
}

export class ReleaseFeedError extends Error {
  constructor(
    readonly kind: 'not-found' | 'unreachable',
    message: string,
  ) {
    super(message);
  }
}
