// The process's logger (pino): JSON lines on stdout, pretty when stdout is a terminal, at LOG_LEVEL; credentials redacted.
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from './config';

export type { Logger } from 'pino';

/**
 * Defense in depth: no caller logs a request's headers or body, but if one ever does, these never reach the log.
 * Named paths only, and few: every path is looked up in every record and every child's bindings (docs/operations.md "Logs").
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrftoken"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  ...['password', 'token', 'access_token', 'refresh_token', 'client_secret', 'csrfmiddlewaretoken'].flatMap((key) => [
    key,
    `body.${key}`,
  ]),
  'config.SECRET_KEY',
  'config.DATABASE_URL',
  'config.REDIS_URL',
];

/**
 * On a terminal: one line per record, a request's fields (request id, bytes, ms, user) after its message rather than a
 * line each; an error's stack still follows its record.
 */
export const PRETTY_OPTIONS = { sync: true, singleLine: true, ignore: 'pid,hostname' } as const;

/** `destination` is for tests (an in-memory log); the process writes to stdout. */
export function createLogger(level: Config['LOG_LEVEL'], destination?: DestinationStream): Logger {
  const stream =
    destination ?? (process.stdout.isTTY ? pretty(PRETTY_OPTIONS) : pino.destination({ dest: 1, sync: true }));
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[Redacted]' },
      // "level":"info" rather than 30, and an ISO time: readable by a person and by jq alike.
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    stream,
  );
}
