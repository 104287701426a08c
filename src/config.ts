// Configuration: the environment parsed once, typed, failing fast with the variable's name.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const DATA_DIR = path.resolve(process.cwd(), 'data');

const unsetIfEmpty = (v: unknown) => (v === '' ? undefined : v);

/** `N/second|minute|hour|day`; empty or unset means no limit. */
const rateValue = z.string().regex(/^\d+\/(second|minute|hour|day)$/, 'expected N/second|minute|hour|day').optional();
const rate = z.preprocess(unsetIfEmpty, rateValue);

const boolish = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

/** A whole number in [min, max]; empty or unset gives the fallback. One message for every way it can be wrong. */
function integer(min: number, max: number | undefined, fallback: number) {
  const message = max === undefined ? `expected an integer of at least ${min}` : `expected an integer from ${min} to ${max}`;
  return z.preprocess(unsetIfEmpty, z.string().optional()).transform((s, ctx) => {
    if (s === undefined) return fallback;
    const n = /^\s*\d+\s*$/.test(s) ? Number(s) : NaN;
    if (Number.isSafeInteger(n) && n >= min && (max === undefined || n <= max)) return n;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });
}

/**
 * A SQLite file's directory must exist: Sequelize would create any missing directories, so a typo would quietly
 * start an empty database somewhere else. ./data/ is ours, made on first use.
 */
function sqliteDirectoryProblem(url: string): string | undefined {
  const storage = url.slice('sqlite:'.length);
  if (!url.startsWith('sqlite:') || storage === ':memory:' || storage.startsWith('file:')) return undefined;
  const dir = path.dirname(path.resolve(storage));
  if (dir === DATA_DIR) return undefined;
  if (!existsSync(dir)) return `the directory ${dir} does not exist (create it, or choose another path)`;
  if (!statSync(dir).isDirectory()) return `${dir} is not a directory`;
  return undefined;
}

const EnvSchema = z.object({
  PORT: integer(0, 65535, 8000),
  /** Processes serving one port (node:cluster); 1 serves from the main process. */
  WEB_CONCURRENCY: integer(1, 256, 1),
  HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * SIGTERM/SIGINT: how long requests in flight may take to finish; past it their connections are cut and the process
   * exits (a few seconds later at most, while the database closes).
   */
  SHUTDOWN_TIMEOUT_MS: integer(0, 3600000, 10000),
  /**
   * A connection on which no byte moves, either way, for this long while a request is read or answered is closed: a
   * client that stops reading its answer (or sending its request) holds nothing for longer.
   */
  SOCKET_TIMEOUT_MS: integer(1, 3600000, 30000),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:.+|mysql:\/\/.+|mariadb:\/\/.+)$/, 'expected sqlite:<path>, sqlite::memory: or mysql://user:pass@host:port/db')
    .default(`sqlite:${path.join(DATA_DIR, 'snippets.sqlite3')}`)
    .superRefine((url, ctx) => {
      const problem = sqliteDirectoryProblem(url);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  /** Comma-separated mysql:// URLs of read replicas (MySQL/MariaDB only): SELECTs go there, writes to DATABASE_URL. */
  DATABASE_REPLICA_URLS: z
    .string()
    .default('')
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^(mysql|mariadb):\/\/.+/, 'expected mysql://user:pass@host:port/db URLs'))),
  /** Connections per process to MySQL/MariaDB (and to each replica). */
  DATABASE_POOL_MAX: integer(1, 1000, 10),
  /**
   * SQLite only. NORMAL, WAL's recommended level, syncs the log at checkpoints: a commit survives a crash of the process,
   * and one made just before a power cut may be rolled back. FULL syncs at every commit.
   */
  SQLITE_SYNCHRONOUS: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(['NORMAL', 'FULL']).default('NORMAL')),
  /**
   * SQLite only: how long a write waits for another process's write lock on the file before it is answered 503 with
   * Retry-After (writes of one process never wait for each other: they share one connection).
   */
  SQLITE_BUSY_TIMEOUT_MS: integer(0, 600000, 5000),
  /** redis://[user:pass@]host:port[/db] (rediss:// for TLS): sessions and throttle counters live there; unset, in the database. */
  REDIS_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.url({ protocol: /^rediss?$/, hostname: /./, error: 'expected redis://[user:pass@]host:port[/db] or rediss://...' }).optional(),
  ),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  AUTH_SCHEMES: z
    .string()
    .default('basic,session,token,oauth2')
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(z.enum(['basic', 'session', 'token', 'oauth2', 'oauth1'])).min(1)),
  API_AUTH_PREFIX: z.string().default('api-auth/'),
  TOKEN_AUTH_PATH: z.string().default('api-token-auth/'),
  ACCESS_TOKEN_EXPIRES_IN: integer(1, undefined, 36000),
  THROTTLE_ANON: rate,
  THROTTLE_USER: rate,
  /** Unlike the two above, on by default: unset is 10/minute, and only an empty value turns it off. */
  THROTTLE_LOGIN: z.string().default('10/minute').transform(unsetIfEmpty).pipe(rateValue),
  TRUST_PROXY: boolish.default(false),
  HIGHLIGHT_TIMEOUT_MS: integer(1, undefined, 2000),
  HIGHLIGHT_WORKERS: integer(1, undefined, Math.max(1, os.availableParallelism())),
  // Read by the CLI's createuser and changepassword only, so a password need not appear in argv.
  SNIPPETS_PASSWORD: z.string().optional(),
  PASSWORD_ITERATIONS: integer(1000, undefined, 260000),
  LOG_LEVEL: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('info'),
});

export type Config = z.infer<typeof EnvSchema> & { SECRET_KEY: string };

/** Every variable the configuration reads (.env.example and README list them all; a test keeps them in step). */
export const CONFIG_VARIABLES = Object.keys(EnvSchema.shape) as readonly (keyof typeof EnvSchema.shape)[];

/** Values a message must not repeat: secrets, and URLs that may carry a password. */
const UNQUOTED = new Set(['SECRET_KEY', 'SNIPPETS_PASSWORD', 'DATABASE_URL', 'DATABASE_REPLICA_URLS', 'REDIS_URL']);

/**
 * Parses an environment (process.env by default). Throws an Error whose message is one line naming every bad
 * variable, with the value given unless it may be secret: `config: PORT: expected an integer from 0 to 65535, got "eighty"`.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const byVariable = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0]);
      if (byVariable.has(name)) continue;
      const got = UNQUOTED.has(name) ? '' : `, got ${JSON.stringify(env[name])}`;
      byVariable.set(name, `${name}: ${issue.message.replace(/\s+/g, ' ')}${got}`);
    }
    throw new Error(`config: ${[...byVariable.values()].join('; ')}`);
  }
  return { ...parsed.data, SECRET_KEY: parsed.data.SECRET_KEY ?? storedSecretKey() };
}

/** A secret generated once and kept under ./data/, so it is never a constant in code. */
function storedSecretKey(): string {
  const file = path.join(DATA_DIR, 'secret_key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(DATA_DIR, { recursive: true });
  const key = randomBytes(48).toString('base64url');
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}
