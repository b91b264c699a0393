/** The two CLIProxyAPI release lines (reference accounts §9.1, decisions §4.1). */
export type CliproxyBackend = 'original' | 'plus';

export interface BackendInfo {
  repo: string;
  assetPrefix: string;
  executable: string;
}

export const BACKENDS: Readonly<Record<CliproxyBackend, BackendInfo>> = {
  original: { repo: 'router-for-me/CLIProxyAPI', assetPrefix: 'CLIProxyAPI', executable: 'cli-proxy-api' },
  plus: { repo: 'kaitranntt/CLIProxyAPIPlus', assetPrefix: 'CLIProxyAPIPlus', executable: 'cli-proxy-api-plus' },
};

/** Compares dotted versions with an optional `-N` build suffix ("7.1.45-1"); leading "v" ignored. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.replace(/^v/, '').split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Asset file name for a version on this OS/arch:
 * `<Prefix>_<ver>_<darwin|linux|windows>_<amd64|aarch64>[_no-plugin].<tar.gz|zip>` (reference §9.1).
 * Returns null for a platform the releases do not cover.
 */
export function assetName(backend: CliproxyBackend, version: string, platform: NodeJS.Platform, arch: string): string | null {
  const info = BACKENDS[backend];
  const ver = version.replace(/^v/, '');
  const os = platform === 'win32' ? 'windows' : platform === 'darwin' || platform === 'linux' ? platform : null;
  if (!os) return null;
  let cpu: string;
  if (arch === 'x64') cpu = 'amd64';
  else if (arch === 'arm64') cpu = backend === 'plus' && compareVersions(ver, '7.1.45-1') < 0 ? 'arm64' : 'aarch64';
  else return null;
  const noPlugin = backend === 'plus' && os !== 'windows' && compareVersions(ver, '7.1.68-0') >= 0 ? '_no-plugin' : '';
  const ext = os === 'windows' ? 'zip' : 'tar.gz';
  return `${info.assetPrefix}_${ver}_${os}_${cpu}${noPlugin}.${ext}`;
}
