import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeOfflineConfig } from '../helpers/offline-config.js';

export interface Served {
  url: string;
  home: string;
  agentDir: string;
  stop(): Promise<void>;
}

/** Runs the built `switchboard serve --port 0` with a temp home, as a user would. */
export async function serve(prepare?: (dirs: { home: string; agentDir: string }) => Promise<void>): Promise<Served> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-e2e-'));
  const home = path.join(root, 'home');
  const agentDir = path.join(root, 'agent');
  await fs.mkdir(agentDir, { recursive: true });
  await prepare?.({ home, agentDir });
  await writeOfflineConfig(home);
  const child = spawn(process.execPath, ['bin/switchboard.js', 'serve', '--port', '0'], {
    env: { ...process.env, SWITCHBOARD_HOME: home, SWITCHBOARD_AGENT_DIR: agentDir, SWITCHBOARD_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let url: string;
  try {
    url = await readyUrl(child);
  } catch (err) {
    // Never leave a server that did not come up (slow, or stuck) running behind the test.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await fs.rm(root, { recursive: true, force: true });
    throw err;
  }
  let stopping = false;
  // A server that dies mid-test shows up as "Failed to fetch" in the page; say why here.
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`switchboard serve (pid ${child.pid}) exited unexpectedly: code ${code}, signal ${signal}`);
  });
  return {
    url,
    home,
    agentDir,
    async stop() {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return void (await fs.rm(root, { recursive: true, force: true }));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}

function readyUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start within 120 s: ${out}`)), 120_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Switchboard listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}
