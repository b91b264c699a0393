import { systemClock } from '../infra/clock.js';
import { createLogger, type LogLevel } from '../infra/logger.js';
import { createPaths, resolveHomes } from '../infra/paths.js';
import { AppConfigStore } from '../services/app-config/store.js';
import { CliproxyService } from '../services/cliproxy/cliproxy-service.js';
import { InstallError } from '../services/cliproxy/installer.js';
import { ReleaseFeedError } from '../services/cliproxy/release-feed.js';
import { AppEvents } from '../services/events.js';
import { CliError } from './args.js';
import { processIo, type CliIo } from './io.js';

export const CLIPROXY_USAGE = `Usage: switchboard cliproxy <command>

Manage the CLIProxyAPI binary that serves agy, kiro and gemini accounts (docs/cliproxy.md).

Commands:
  status                                       installed version, backend, pin, latest release
  install [--backend original|plus] [--version V] [--force]
                                               install or update (the pin, else the latest release)
  pin V                                        stay on version V
  unpin                                        follow the latest release again
  uninstall                                    remove the binary (accounts in proxy/auth/ stay)

Exit codes: 0 ok, 1 failure, 2 usage error.
`;

function cliService(env: NodeJS.ProcessEnv): CliproxyService {
  const paths = createPaths(resolveHomes(env));
  const logger = createLogger((env.SWITCHBOARD_LOG_LEVEL as LogLevel | undefined) ?? 'warn');
  return new CliproxyService({ paths, clock: systemClock, logger, events: new AppEvents(), appConfig: new AppConfigStore(paths.appConfig), env });
}

const VERSION = /^v?\d+\.\d+\.\d+(-\d+)?$/;

export async function runCliproxy(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === 'help' || sub === '--help' || sub === '-h') {
    (sub ? io.out : io.err)(CLIPROXY_USAGE);
    return sub ? 0 : 2;
  }
  const service = cliService(env);
  try {
    switch (sub) {
      case 'status': {
        noMore(rest, sub);
        const s = await service.status({ checkLatest: true });
        io.out(
          s.installed ? `CLIProxyAPI ${s.version} (${s.backend}) at ${s.path}\n` : `CLIProxyAPI is not installed (backend ${s.backend})\n`,
        );
        io.out(`pinned: ${s.pinned ?? 'no'}; latest release: ${s.latestVersion ?? 'unknown (feed unreachable)'}; running: ${s.running ? `yes, port ${s.port}` : 'no'}\n`);
        return 0;
      }
      case 'install': {
        const req = parseInstall(rest);
        let last = -1;
        const off = service.onProgress(({ received, total }) => {
          const pct = total ? Math.floor((received / total) * 100) : -1;
          if (pct !== last) io.err(`\rdownloading: ${received} of ${total ?? '?'} bytes${pct >= 0 ? ` (${pct}%)` : ''}`);
          last = pct;
        });
        try {
          const done = await service.install(req);
          io.err('\n');
          io.out(done.previousVersion && done.previousVersion !== done.version ? `CLIProxyAPI ${done.previousVersion} -> ${done.version} (${done.backend})${done.restarted ? ', restarted' : ''}\n` : `CLIProxyAPI ${done.version} (${done.backend}) installed at ${done.path}\n`);
          return 0;
        } finally {
          off();
        }
      }
      case 'pin': {
        const [v, ...more] = rest;
        if (!v || !VERSION.test(v)) throw new CliError(`'cliproxy pin' needs a version like 6.9.45`);
        noMore(more, sub);
        await service.setPin(v);
        io.out(`pinned to ${v}\n`);
        return 0;
      }
      case 'unpin':
        noMore(rest, sub);
        await service.setPin(null);
        io.out('unpinned: installs follow the latest release\n');
        return 0;
      case 'uninstall': {
        noMore(rest, sub);
        const { removed } = await service.uninstall();
        io.out(removed ? 'CLIProxyAPI removed (accounts kept)\n' : 'CLIProxyAPI was not installed\n');
        return 0;
      }
      default:
        throw new CliError(`unknown cliproxy command '${sub}'\n\n${CLIPROXY_USAGE}`);
    }
  } catch (err) {
    if (err instanceof InstallError || err instanceof ReleaseFeedError) {
      io.err(`\nswitchboard: ${err.message}${err instanceof InstallError && err.kind === 'known-bad' ? ' (use --force to install it anyway)' : ''}\n`);
      return 1;
    }
    throw err;
  } finally {
    await service.runner.dispose();
  }
}

function noMore(rest: string[], sub: string): void {
  if (rest.length > 0) throw new CliError(`unexpected argument '${rest[0]}' for 'cliproxy ${sub}'`);
}

function parseInstall(args: string[]): { backend?: 'original' | 'plus'; version?: string; force?: boolean } {
  const req: { backend?: 'original' | 'plus'; version?: string; force?: boolean } = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--force') req.force = true;
    else if (a === '--backend') {
      const b = args[++i];
      if (b !== 'original' && b !== 'plus') throw new CliError(`--backend takes original or plus`);
      req.backend = b;
    } else if (a === '--version') {
      const v = args[++i];
      if (!v || !VERSION.test(v)) throw new CliError(`--version takes a version like 6.9.45`);
      req.version = v;
    } else throw new CliError(`unexpected argument '${a}' for 'cliproxy install'`);
  }
  return req;
}
