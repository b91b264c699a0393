/**
 * Release versions as the proxy world writes them: `X.Y.Z`, or `X.Y.Z-N` where N is a build on
 * top of upstream X.Y.Z (CLIProxyAPIPlus and its fork). Unlike semver, `-N` ranks ABOVE the plain
 * version, and N counts: `7.2.127-21` is newer than `7.2.127-11` (CCS strips N and gets this
 * wrong, reference §8). A leading `v` and trailing words (`-plus`) are ignored.
 */
export function parseVersion(text: string): number[] | null {
  const match = /^\s*v?(\d+(?:[.-]\d+)*)/i.exec(text);
  if (!match) return null;
  return match[1]!.split(/[.-]/).map(Number);
}

/** Negative when a is older than b, 0 when equal, positive when newer; null when either is unreadable. */
export function compareVersions(a: string, b: string): number | null {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  if (!pa || !pb) return null;
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    // A missing part ranks below any number: 1.2.3 < 1.2.3-0.
    const x = pa[i] ?? -1;
    const y = pb[i] ?? -1;
    if (x !== y) return x - y;
  }
  return 0;
}

/** The version without a leading `v`, as reported to clients. */
export function cleanVersion(tag: string): string {
  return tag.trim().replace(/^v/i, '');
}
