import type { Logger } from './logger.js';

/**
 * The last line of defence for a server that must not die of one request: an exception thrown
 * outside any handler (a stream's event, a timer) or a promise nobody awaited is logged with its
 * stack and the process keeps serving. Every known cause is fixed where it happens (a bounded
 * read, a caught error); this only keeps an unknown one from taking every other request and the
 * children's supervision down with it. Installed once the port listens: a failure to start still
 * ends the process. Returns the uninstaller.
 */
export function installLastResortGuard(logger: Logger, target: NodeJS.EventEmitter = process): () => void {
  const onException = (err: unknown) => logger.error(`uncaught exception, still serving: ${describe(err)}`);
  const onRejection = (reason: unknown) => logger.error(`unhandled promise rejection, still serving: ${describe(reason)}`);
  target.on('uncaughtException', onException);
  target.on('unhandledRejection', onRejection);
  return () => {
    target.off('uncaughtException', onException);
    target.off('unhandledRejection', onRejection);
  };
}

function describe(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}
