import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { engineCommand } from '../../engines/proxy-engine/command.js';
import type { ProxyConfig } from '../../engines/proxy-engine/config.js';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import type { Paths } from '../../infra/paths.js';
import { ORIGIN_OVERRIDES_ENV, type OriginOverrides } from '../../infra/origin-overrides.js';
import type { LaunchSpec } from '../../infra/process-supervisor.js';
import type { ProxySection } from '../app-config/schema.js';
import { toBinaryConfig } from './external-config.js';

export type EngineKind = 'builtin' | 'binary';

export function engineKind(section: ProxySection): EngineKind {
  return section.binary_path.trim() ? 'binary' : 'builtin';
}

/**
 * How to run the proxy (decisions §4): the built-in engine from our own sources/build, or the
 * installed CLIProxyAPI-compatible binary named by `proxy.binary_path` with a translated config.
 * Either way WRITABLE_PATH = proxy/, so error logs land in proxy/logs/.
 *
 * Output goes to proxy/engine-output.log rather than a pipe, so the proxy never depends on the
 * app staying alive to read it. With `keep_running_on_quit` the child also gets its own process
 * group (detached), so a Ctrl-C to `switchboard serve` in a terminal does not reach it; without
 * it the child stays in our group and the app stops it on quit.
 */
export async function proxyLaunchSpec(paths: Paths, config: ProxyConfig, section: ProxySection, originOverrides: OriginOverrides = {}): Promise<LaunchSpec> {
  await fs.mkdir(paths.proxyLogsDir, { recursive: true, mode: 0o700 });
  await fs.mkdir(paths.proxyAuthDir, { recursive: true, mode: 0o700 });
  const common = { cwd: paths.proxyDir, detached: section.keep_running_on_quit, outputFile: paths.proxyOutput };
  if (engineKind(section) === 'binary') {
    await writeFileAtomic(paths.proxyBinaryConfig, toBinaryConfig(config, { authDir: paths.proxyAuthDir, errorLogKeep: section.error_log_keep }), { mode: 0o600 });
    return {
      command: expandHome(section.binary_path.trim()),
      args: ['-config', paths.proxyBinaryConfig],
      env: { WRITABLE_PATH: paths.proxyDir },
      ...common,
      meta: { engine: 'binary', version: section.binary_version },
    };
  }
  const entry = engineCommand(paths.proxyConfig);
  return {
    command: entry.command,
    args: entry.args,
    env: { ...entry.env, WRITABLE_PATH: paths.proxyDir, SWITCHBOARD_ERROR_LOG_KEEP: String(section.error_log_keep), [ORIGIN_OVERRIDES_ENV]: JSON.stringify(originOverrides) },
    ...common,
    meta: { engine: 'builtin' },
  };
}

function expandHome(file: string): string {
  return file === '~' || file.startsWith('~/') ? path.join(os.homedir(), file.slice(1)) : file;
}
