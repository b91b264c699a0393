import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCommand } from '../../../../main/engines/proxy-engine/command.js';
import { findFreePort } from '../../../../main/infra/port-probe.js';

/** The engine as a real process, the way the supervisor runs it. */
let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-engine-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

function runEngine(configText: string): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return (async () => {
    const config = path.join(dir, `config-${Math.random().toString(16).slice(2)}.yaml`);
    await fs.writeFile(config, configText);
    const { command, args, env } = engineCommand(config);
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    // Only a bound against a hang: the engine from sources can take many seconds to start on a busy machine.
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    return { code, stderr, stdout };
  })();
}

describe('proxy engine process', () => {
  it('exits non-zero with a clear message when its port is taken', async () => {
    const port = await findFreePort();
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(port, '127.0.0.1', r));
    try {
      const result = await runEngine(`server: { port: ${port}, host: 127.0.0.1 }\n`);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is already in use by another process (EADDRINUSE)`);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('exits 2 naming the key when the config has a known key of the wrong type', async () => {
    const result = await runEngine('server: { port: "eighty" }\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/invalid config: .*server\.port/);
  });
});
