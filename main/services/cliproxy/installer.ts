import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import * as tar from 'tar';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { assetName, BACKENDS, compareVersions, type CliproxyBackend } from './backends.js';
import { fetchRelease, type Overrides } from './release-feed.js';

export interface InstallProgress {
  received: number;
  total: number | null;
}

export interface InstallOptions {
  binDir: string;
  backend: CliproxyBackend;
  version: string | null;
  force: boolean;
  knownBad: readonly string[];
  overrides: Overrides;
  platform?: NodeJS.Platform;
  arch?: string;
  onProgress?: (p: InstallProgress) => void;
}

export interface InstalledBinary {
  backend: CliproxyBackend;
  version: string;
  path: string;
}

export type InstallErrorKind = 'checksum' | 'known-bad' | 'no-asset' | 'download' | 'unpack';

export class InstallError extends Error {
  constructor(
    readonly kind: InstallErrorKind,
    message: string,
  ) {
    super(message);
  }
}

const VERSION_FILE = 'version.json';

/** What is installed in `binDir`, from the record written beside the executable. */
export async function readInstalled(binDir: string): Promise<InstalledBinary | null> {
  try {
    const rec = JSON.parse(await fs.readFile(path.join(binDir, VERSION_FILE), 'utf8')) as Partial<InstalledBinary>;
    if ((rec.backend !== 'original' && rec.backend !== 'plus') || typeof rec.version !== 'string' || typeof rec.path !== 'string') return null;
    await fs.access(rec.path);
    return { backend: rec.backend, version: rec.version, path: rec.path };
  } catch {
    return null;
  }
}

export function isKnownBad(version: string, knownBad: readonly string[]): boolean {
  return knownBad.some((v) => compareVersions(v, version) === 0);
}

/**
 * Downloads, verifies against checksums.txt, unpacks and swaps in the executable. Every step
 * before the final rename works in a scratch folder, so a failure leaves the old binary alone.
 */
export async function installCliproxy(opts: InstallOptions): Promise<InstalledBinary> {
  const release = await fetchRelease(opts.backend, opts.version, opts.overrides);
  if (!opts.force && isKnownBad(release.version, opts.knownBad)) throw new InstallError('known-bad', `Version ${release.version} is on the known-bad list`);
  const name = assetName(opts.backend, release.version, opts.platform ?? process.platform, opts.arch ?? process.arch);
  const asset = name ? release.assets.find((a) => a.name === name) : undefined;
  const sums = release.assets.find((a) => a.name === 'checksums.txt');
  if (!name || !asset) throw new InstallError('no-asset', `No asset ${name ?? `for ${process.platform}/${process.arch}`} in ${release.tag}`);
  if (!sums) throw new InstallError('no-asset', `No checksums.txt in ${release.tag}`);

  await fs.mkdir(opts.binDir, { recursive: true, mode: 0o700 });
  const scratch = path.join(opts.binDir, `.install-${randomBytes(6).toString('hex')}`);
  await fs.mkdir(scratch, { mode: 0o700 });
  try {
    const expected = expectedSum(await fetchText(sums.url), name);
    if (!expected) throw new InstallError('checksum', `checksums.txt has no line for ${name}`);
    const archive = path.join(scratch, name);
    const actual = await download(asset.url, archive, opts.onProgress);
    if (actual !== expected) throw new InstallError('checksum', `Checksum mismatch for ${name}: expected ${expected}, got ${actual}`);
    const exe = BACKENDS[opts.backend].executable + (name.endsWith('.zip') ? '.exe' : '');
    const unpacked = path.join(scratch, 'x');
    await fs.mkdir(unpacked);
    if (name.endsWith('.zip')) throw new InstallError('unpack', 'zip assets (Windows) are not supported yet');
    await tar.x({ file: archive, cwd: unpacked, strict: true });
    const found = await findFile(unpacked, exe);
    if (!found) throw new InstallError('unpack', `${exe} not found in ${name}`);
    await fs.chmod(found, 0o755);
    const target = path.join(opts.binDir, exe);
    await fs.rename(found, target); // same file system: atomic swap of the executable
    const installed: InstalledBinary = { backend: opts.backend, version: release.version, path: target };
    await writeFileAtomic(path.join(opts.binDir, VERSION_FILE), JSON.stringify(installed, null, 2) + '\n');
    return installed;
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** The hex SHA-256 of `name` in a goreleaser checksums.txt (`<hex>  <name>` lines). */
export function expectedSum(text: string, name: string): string | null {
  for (const line of text.split(/\r?\n/)) {
    const m = /^([0-9a-f]{64})\s+\*?(.+)$/i.exec(line.trim());
    if (m?.[1] && m[2] === name) return m[1].toLowerCase();
  }
  return null;
}

async function fetchText(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'follow' });
  if (!res.ok) throw new InstallError('download', `${url}: HTTP ${res.status}`);
  return res.text();
}

/** Streams `url` into `file`, hashing as it goes; a short body (fewer bytes than announced) fails. */
async function download(url: string, file: string, onProgress?: (p: InstallProgress) => void): Promise<string> {
  const res = await fetch(url, { redirect: 'follow' });
  if (!res.ok || !res.body) throw new InstallError('download', `${url}: HTTP ${res.status}`);
  const header = res.headers.get('content-length');
  const total = header ? Number.parseInt(header, 10) : null;
  const hash = createHash('sha256');
  const out = createWriteStream(file, { mode: 0o600 });
  let received = 0;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      received += chunk.length;
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      onProgress?.({ received, total });
    }
  } catch (err) {
    throw new InstallError('download', `Download cut off after ${received} bytes: ${(err as Error).message}`);
  } finally {
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
  if (total !== null && received !== total) throw new InstallError('download', `Download incomplete: ${received} of ${total} bytes`);
  return hash.digest('hex');
}

async function findFile(dir: string, name: string): Promise<string | null> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isFile() && entry.name === name) return p;
    if (entry.isDirectory()) {
      const inner = await findFile(p, name);
      if (inner) return inner;
    }
  }
  return null;
}
