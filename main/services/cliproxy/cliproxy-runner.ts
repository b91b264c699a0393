import fs from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { isHttpOk } from '../../infra/http-probe.js';
import { ProcessSupervisor, type SupervisorStatus } from '../../infra/process-supervisor.js';
import type { ServiceContext } from '../context.js';
import { CredentialsStore, type CliproxyCredentials } from './cliproxy-credentials.js';

export interface RunnerFiles {
  /** proxy/cliproxy/: generated config, state file, output log. */
  runDir: string;
  /** proxy/auth/: the accounts, shared with the built-in engine. */
  authDir: string;
  /** Present while a start or an update's restart is under way: the engine waits out refused connections then. */
  startingFile: string;
}

/**
 * Runs the managed binary on a loopback port of its own with a generated config (logging off),
 * through the shared process supervisor: adopted after an app restart, crash noticed by the exit
 * watch (500 ms).
 */
export class CliproxyRunner {
  private readonly supervisor: ProcessSupervisor;
  private adopted: Promise<boolean> | null = null;
  private readonly configFile: string;
  private readonly store: CredentialsStore;

  constructor(
    ctx: ServiceContext,
    private readonly files: RunnerFiles,
    binary: () => Promise<string | null>,
    /** Brings settings-driven keys into the generated config before each start (binary-config.ts). */
    prepareConfig: (configFile: string) => Promise<unknown> = async () => undefined,
  ) {
    this.configFile = path.join(files.runDir, 'config.yaml');
    this.store = new CredentialsStore(files.runDir, this.configFile);
    this.supervisor = new ProcessSupervisor({
      name: 'cliproxy',
      port: async () => (await this.store.read()).port,
      launch: async () => {
        const exe = await binary();
        if (!exe) throw new Error('CLIProxyAPI is not installed');
        await this.writeConfig(await this.store.read());
        await prepareConfig(this.configFile);
        return { command: exe, args: ['-config', this.configFile], env: { WRITABLE_PATH: files.runDir }, cwd: files.runDir, outputFile: path.join(files.runDir, 'output.log') };
      },
      isHealthy: (port) => isHttpOk(`http://127.0.0.1:${port}/`, 5_000),
      readyTimeoutMs: 10_000,
      readyPollMs: 50,
      stopGraceMs: 5_000,
      exitWatchMs: 500,
      stateFile: path.join(files.runDir, 'state.json'),
      clock: ctx.clock,
      logger: ctx.logger,
    });
  }

  /** Takes over a binary a previous app run left running (once). */
  adopt(): Promise<boolean> {
    this.adopted ??= this.supervisor.adopt().catch(() => false);
    return this.adopted;
  }

  status(): SupervisorStatus {
    return this.supervisor.status();
  }

  async start(): Promise<{ port: number; pid: number }> {
    await this.adopt();
    const run = this.supervisor.status();
    if (run.state === 'running' && run.port !== undefined && run.pid !== undefined) return { port: run.port, pid: run.pid };
    const r = await this.whileStarting(() => this.supervisor.start());
    return { port: r.port, pid: r.pid };
  }

  /**
   * An update's swap: the old process stops, the new binary starts on the same port. The starting
   * marker spans both, so the engine holds requests that arrive meanwhile instead of failing them.
   */
  async restart(): Promise<{ port: number; pid: number }> {
    await this.adopt();
    const r = await this.whileStarting(async () => {
      await this.supervisor.stop();
      return this.supervisor.start();
    });
    return { port: r.port, pid: r.pid };
  }

  private async whileStarting<T>(work: () => Promise<T>): Promise<T> {
    // Wall-clock time, not the injectable clock: the engine, another process, judges its age.
    await writeFileAtomic(this.files.startingFile, JSON.stringify({ since: Date.now() }), { mode: 0o600 });
    try {
      return await work();
    } finally {
      await fs.rm(this.files.startingFile, { force: true });
    }
  }

  async stop(): Promise<boolean> {
    await this.adopt();
    return (await this.supervisor.stop()).stopped;
  }

  async dispose(): Promise<void> {
    await this.supervisor.dispose();
  }

  /** Port, key and plaintext secret for the engine's forwarder and the management client. */
  credentials(): Promise<CliproxyCredentials> {
    return this.store.read();
  }

  /**
   * Writes config.yaml from the stored credentials before every launch: the binary replaces the
   * plaintext secret with its hash after each start, and a fresh plaintext copy is what it expects.
   */
  private async writeConfig(creds: CliproxyCredentials): Promise<void> {
    const config = {
      host: '127.0.0.1',
      port: creds.port,
      'auth-dir': this.files.authDir,
      'api-keys': [creds.apiKey],
      'remote-management': { 'allow-remote': false, 'secret-key': creds.secret },
      // CCS #96: the binary's logs grew to gigabytes; off unless the user turns them on.
      'logging-to-file': false,
      'request-log': false,
      debug: false,
    };
    await fs.mkdir(this.files.authDir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.configFile, YAML.stringify(config), { mode: 0o600 });
  }
}
