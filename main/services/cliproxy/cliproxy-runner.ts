import fs from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { isHttpOk } from '../../infra/http-probe.js';
import { findFreePort } from '../../infra/port-probe.js';
import { ProcessSupervisor, type SupervisorStatus } from '../../infra/process-supervisor.js';
import { randomAlphanumeric } from '../../infra/random-text.js';
import type { ServiceContext } from '../context.js';

export interface RunnerFiles {
  /** proxy/cliproxy/: generated config, state file, output log. */
  runDir: string;
  /** proxy/auth/: the accounts, shared with the built-in engine. */
  authDir: string;
}

interface Generated {
  port: number;
  apiKey: string;
  secret: string;
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

  constructor(
    ctx: ServiceContext,
    private readonly files: RunnerFiles,
    binary: () => Promise<string | null>,
    /** Brings settings-driven keys into the generated config before each start (binary-config.ts). */
    prepareConfig: (configFile: string) => Promise<unknown> = async () => undefined,
  ) {
    this.configFile = path.join(files.runDir, 'config.yaml');
    this.supervisor = new ProcessSupervisor({
      name: 'cliproxy',
      port: async () => (await this.generated()).port,
      launch: async () => {
        const exe = await binary();
        if (!exe) throw new Error('CLIProxyAPI is not installed');
        await this.generated();
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
    const r = await this.supervisor.start();
    return { port: r.port, pid: r.pid };
  }

  async stop(): Promise<boolean> {
    await this.adopt();
    return (await this.supervisor.stop()).stopped;
  }

  async dispose(): Promise<void> {
    await this.supervisor.dispose();
  }

  /** Key and secret for the engine's forwarder and the management routes (later work). */
  async credentials(): Promise<Generated> {
    return this.generated();
  }

  /** Reads the generated config, writing it first (free port, fresh key and secret) when missing. */
  private async generated(): Promise<Generated> {
    try {
      const doc = YAML.parse(await fs.readFile(this.configFile, 'utf8')) as Record<string, unknown>;
      const keys = doc['api-keys'];
      const mgmt = doc['remote-management'] as { 'secret-key'?: unknown } | undefined;
      if (typeof doc.port === 'number' && Array.isArray(keys) && typeof keys[0] === 'string' && typeof mgmt?.['secret-key'] === 'string') {
        return { port: doc.port, apiKey: keys[0], secret: mgmt['secret-key'] };
      }
    } catch {
      // missing or unreadable: written fresh below
    }
    const gen: Generated = { port: await findFreePort(), apiKey: `sb-cliproxy-${randomAlphanumeric(32)}`, secret: randomAlphanumeric(32) };
    const config = {
      host: '127.0.0.1',
      port: gen.port,
      'auth-dir': this.files.authDir,
      'api-keys': [gen.apiKey],
      'remote-management': { 'allow-remote': false, 'secret-key': gen.secret },
      // CCS #96: the binary's logs grew to gigabytes; off unless the user turns them on.
      'logging-to-file': false,
      'request-log': false,
      debug: false,
    };
    await fs.mkdir(this.files.authDir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.configFile, YAML.stringify(config), { mode: 0o600 });
    return gen;
  }
}
