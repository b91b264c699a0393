import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import * as tar from 'tar';

/** The two CLIProxyAPI products as their GitHub releases name them (reference accounts.md §9.1). */
export const CLIPROXY_ORIGINAL = { repo: 'router-for-me/CLIProxyAPI', prefix: 'CLIProxyAPI', executable: 'cli-proxy-api' } as const;
export const CLIPROXY_PLUS = { repo: 'kaitranntt/CLIProxyAPIPlus', prefix: 'CLIProxyAPIPlus', executable: 'cli-proxy-api-plus' } as const;

/** The fake binary that imitates CLIProxyAPI (management routes, /v1/models, /v1/messages). */
export const FAKE_CLIPROXY = path.resolve('test/fixtures/fake-cliproxy.mjs');

/** An archive's executable that runs the fake binary; `label` (a comment line) makes each version's archive differ. */
export function fakeCliproxyWrapper(label?: string): string {
  return `#!/bin/sh\n${label === undefined ? '' : `# ${label}\n`}exec "${process.execPath}" "${FAKE_CLIPROXY}" "$@"\n`;
}

export interface FakeRelease {
  version: string;
  /** Script text of the executable inside the archive. */
  script: string;
  /** Replace checksums.txt's hash for the archive with a wrong one. */
  badChecksum?: boolean;
  /** Send only this many bytes of the archive, then cut the connection. */
  cutAfter?: number;
  /** Send this many bytes of the archive, then hold the rest until the feed's `resume()` (a visible mid-download state). */
  pauseAfter?: number;
  /** Add a file of this many random bytes to the archive, so a download has a size to show progress of. */
  padBytes?: number;
}

/**
 * A local stand-in for api.github.com and github.com release downloads: serves release JSON for
 * `releases/latest` and `releases/tags/v<ver>`, a tar.gz holding `executable`, and checksums.txt.
 */
export interface FakeProduct {
  repo: string;
  prefix: string;
  executable: string;
  releases: FakeRelease[];
}

export async function startFakeReleaseFeed(opts: FakeProduct & { workDir: string; extra?: FakeProduct[] }) {
  const gate = new Gate();
  const handlers = await Promise.all([opts, ...(opts.extra ?? [])].map((p) => productHandler(opts.workDir, p, gate)));
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (!handlers.some((h) => h.handle(req.url ?? '', res))) res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    overrides: { 'https://api.github.com': origin, 'https://github.com': origin },
    setLatest: (v: string) => handlers[0]?.setLatest(v),
    /** Resolves once a paused download has sent its first part. */
    paused: () => gate.reached,
    /** Lets a paused download send the rest. */
    resume: () => gate.open(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One hold point for paused downloads: `reached` when a download waits, `open()` lets it go on. */
class Gate {
  private onReached!: () => void;
  readonly reached = new Promise<void>((resolve) => (this.onReached = resolve));
  private onOpen!: () => void;
  private readonly opened = new Promise<void>((resolve) => (this.onOpen = resolve));
  hold(): Promise<void> {
    this.onReached();
    return this.opened;
  }
  open(): void {
    this.onOpen();
  }
}

async function productHandler(workDir: string, opts: FakeProduct, gate: Gate) {
  const files = new Map<string, Buffer>();
  const byVersion = new Map<string, FakeRelease>();
  const arch = process.arch === 'arm64' ? 'aarch64' : 'amd64';
  const assetOf = (v: string) => `${opts.prefix}_${v}_${process.platform}_${arch}.tar.gz`;
  for (const rel of opts.releases) {
    byVersion.set(rel.version, rel);
    const src = path.join(workDir, `src-${rel.version}`);
    await fs.mkdir(src, { recursive: true });
    await fs.writeFile(path.join(src, opts.executable), rel.script, { mode: 0o755 });
    if (rel.padBytes) await fs.writeFile(path.join(src, 'README.pad'), randomBytes(rel.padBytes));
    const archive = path.join(workDir, assetOf(rel.version));
    await tar.c({ gzip: true, file: archive, cwd: src }, rel.padBytes ? [opts.executable, 'README.pad'] : [opts.executable]);
    const data = await fs.readFile(archive);
    files.set(`v${rel.version}/${assetOf(rel.version)}`, data);
    const sum = rel.badChecksum ? 'f'.repeat(64) : createHash('sha256').update(data).digest('hex');
    files.set(`v${rel.version}/checksums.txt`, Buffer.from(`${sum}  ${assetOf(rel.version)}\n${'0'.repeat(64)}  other.zip\n`));
  }
  let latest = opts.releases[opts.releases.length - 1]?.version ?? '';
  const handle = (url: string, res: http.ServerResponse): boolean => {
    const api = new RegExp(`^/repos/${opts.repo}/releases/(latest|tags/v(.+))$`).exec(url);
    if (api) {
      const rel = byVersion.get(api[1] === 'latest' ? latest : (api[2] ?? ''));
      if (!rel) return void res.writeHead(404).end('{}'), true;
      const assets = [assetOf(rel.version), 'checksums.txt'].map((name) => ({ name, size: files.get(`v${rel.version}/${name}`)?.length ?? 0 }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ tag_name: `v${rel.version}`, assets }));
      return true;
    }
    const dl = new RegExp(`^/${opts.repo}/releases/download/(v[^/]+)/([^/]+)$`).exec(url);
    if (!dl) return false;
    const key = `${dl[1]}/${decodeURIComponent(dl[2] ?? '')}`;
    const body = files.get(key);
    if (!body) return void res.writeHead(404).end('not found'), true;
    const rel = byVersion.get((dl[1] ?? '').slice(1));
    res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' });
    if (rel?.cutAfter !== undefined && !key.endsWith('checksums.txt')) {
      res.write(body.subarray(0, rel.cutAfter));
      setImmediate(() => res.socket?.destroy());
      return true;
    }
    if (rel?.pauseAfter !== undefined && !key.endsWith('checksums.txt')) {
      res.write(body.subarray(0, rel.pauseAfter));
      void gate.hold().then(() => res.end(body.subarray(rel.pauseAfter)));
      return true;
    }
    res.end(body);
    return true;
  };
  return { handle, setLatest: (v: string) => void (latest = v) };
}
