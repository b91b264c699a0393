import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPaths, writtenDirs } from '../../../main/infra/paths.js';
import { startTestApp } from '../../helpers/app.js';

/**
 * Issue 17: after 30 SIGKILLs during writes, 6 temp files stayed in backups/config/ and
 * backups/agent-tool/, some holding API keys. The start-up sweep covers every directory the app
 * writes, and only our own temp names (a foreign `.x.tmp` is not ours to delete).
 */

const DIRS = ['', 'backups', 'backups/config', 'backups/agent-tool', 'proxy', 'proxy/auth', 'proxy/logs', 'cursor', '.cache'];

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

describe('start-up temp-file sweep', () => {
  it('removes a killed writer’s temp file from every directory the app writes, and nothing foreign', async () => {
    const dead = await deadPid();
    const ours = `.settings.json.${dead}.0123456789ab.tmp`;
    const foreign = '.editor-swap.tmp';
    const app = await startTestApp({
      before: async ({ home }) => {
        for (const dir of DIRS) {
          await fs.mkdir(path.join(home, dir), { recursive: true });
          await fs.writeFile(path.join(home, dir, ours), '{"env":{"ANTHROPIC_API_KEY":"sk-ant-');
        }
        await fs.writeFile(path.join(home, 'backups', 'config', foreign), 'x');
        const old = new Date(Date.now() - 5 * 60_000);
        await fs.utimes(path.join(home, 'backups', 'config', foreign), old, old);
      },
    });
    try {
      const left: string[] = [];
      for (const dir of DIRS) {
        for (const name of await fs.readdir(path.join(app.home, dir))) if (name.endsWith('.tmp')) left.push(path.join(dir, name));
      }
      expect(left).toEqual([path.join('backups', 'config', foreign)]);
    } finally {
      await app.stop();
    }
  });

  it('derives its list from paths.ts: the directory of every file the app keeps is in it', () => {
    const paths = createPaths({ configDir: '/h', agentDir: '/a' });
    const dirs = writtenDirs(paths);
    for (const [key, value] of Object.entries(paths)) {
      if (typeof value !== 'string' || ['configDir', 'agentDir', 'sharedDir', 'instancesDir'].includes(key)) continue;
      expect(dirs, key).toContain(key.endsWith('Dir') ? value : path.dirname(value));
    }
    expect(dirs).toEqual(expect.arrayContaining(['/h', '/h/backups/config', '/h/backups/agent-tool']));
    expect(dirs).not.toContain('/a');
  });
});
