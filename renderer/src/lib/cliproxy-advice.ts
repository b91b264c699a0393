/**
 * What the CLIProxyAPI card says about an install: the progress line, the result line, and for
 * each refusal of POST /api/proxy/cliproxy/install (docs/cliproxy.md) what to do next. Pure, so
 * the texts are tested without a browser.
 */
import { formatBytes } from './format.js';

export interface InstallProgress {
  received: number;
  total: number | null;
}

/** "1.2 MB of 3.4 MB (35%)"; without a known total only the bytes so far. */
export function progressLine(p: InstallProgress): string {
  if (p.total === null || p.total <= 0) return `${formatBytes(p.received)} downloaded`;
  return `${formatBytes(p.received)} of ${formatBytes(p.total)} (${progressPercent(p)}%)`;
}

export function progressPercent(p: InstallProgress): number {
  if (p.total === null || p.total <= 0) return 0;
  return Math.min(100, Math.floor((p.received / p.total) * 100));
}

/** "6.9.44 → 6.9.45, restarted" after an update; "6.9.45 installed" after a first install. */
export function installedLine(r: { version: string; previousVersion: string | null; restarted: boolean }): string {
  const what = r.previousVersion === null ? `${r.version} installed` : r.previousVersion === r.version ? `${r.version} reinstalled` : `${r.previousVersion} → ${r.version}`;
  return r.restarted ? `${what}, restarted` : what;
}

export interface Refusal {
  title: string;
  next: string;
}

/** The next step for each refusal the install route answers; null for errors it does not name. */
export function refusalAdvice(error: string): Refusal | null {
  switch (error) {
    case 'Checksum mismatch':
      return {
        title: 'The download did not match the release’s checksums.txt',
        next: 'Nothing was replaced: the installed binary (if any) keeps running. Try again later; if it happens again, pin the version you have and report the release.',
      };
    case 'Known-bad version':
      return {
        title: 'This version is on the known-bad list',
        next: 'Pick another version or unpin. Installing it anyway needs your confirmation.',
      };
    case 'No release asset':
      return {
        title: 'No build of that release for this computer',
        next: 'The version may not exist, or has no asset for this OS and processor. Pin another version, or choose the other backend.',
      };
    case 'Download failed':
      return {
        title: 'The download did not finish',
        next: 'Nothing was replaced. Check the network connection (or network.origin_overrides in config.yaml) and press Install again.',
      };
    default:
      return null;
  }
}
