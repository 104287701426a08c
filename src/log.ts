// A minimal levelled logger to stderr; callers never pass credentials to it.
import type { Config } from './config';

const LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type Level = (typeof LEVELS)[number];

export interface Logger {
  error(msg: string, err?: unknown): void;
  warn(msg: string): void;
  info(msg: string): void;
}

export function createLogger(level: Config['LOG_LEVEL']): Logger {
  const at = LEVELS.indexOf(level);
  const write = (lvl: Level, msg: string) => {
    if (LEVELS.indexOf(lvl) <= at) process.stderr.write(`${new Date().toISOString()} ${lvl} ${msg}\n`);
  };
  return {
    error: (msg, err) => write('error', err instanceof Error ? `${msg}: ${err.stack ?? err.message}` : msg),
    warn: (msg) => write('warn', msg),
    info: (msg) => write('info', msg),
  };
}
