import { terminalText } from './terminal-text.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * One-line text logs on stderr. Callers never pass secrets or request bodies. Messages quote
 * upstream answers and file names: their control characters are escaped (terminal-text.ts), so a
 * log line cannot act on the terminal `switchboard serve` runs in.
 */
export function createLogger(level: LogLevel = 'info', write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const at = (lvl: Exclude<LogLevel, 'silent'>) => (message: string) => {
    if (order[lvl] >= order[level]) write(`${new Date().toISOString()} ${lvl} ${terminalText(message)}\n`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

export const silentLogger: Logger = createLogger('silent');
