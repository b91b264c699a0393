import fs from 'node:fs/promises';
import os from 'node:os';
import { app } from 'electron';
import { writeFileAtomic } from '../infra/atomic-write.js';
import type { Logger } from '../infra/logger.js';
import { loginItemPlan } from './login-item.js';

/** Applies `desktop.launch_at_login`; only the packaged app registers itself (dev runs `electron .`). */
export async function applyLaunchAtLogin(enabled: boolean, logger: Logger): Promise<void> {
  if (!app.isPackaged) {
    logger.debug('launch at login applies to the packaged app only');
    return;
  }
  const plan = loginItemPlan(enabled, { platform: process.platform, execPath: process.execPath, env: process.env, homeDir: os.homedir() });
  if (plan.kind === 'login-item') {
    app.setLoginItemSettings(plan.settings);
    return;
  }
  if (plan.content === null) {
    await fs.rm(plan.file, { force: true });
    return;
  }
  // ~/.config/autostart is shared with every other app: the usual modes, not our private 0700.
  await writeFileAtomic(plan.file, plan.content, { mode: 0o644, dirMode: 0o755 });
}
