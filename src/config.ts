// Configuration: the environment parsed once, typed, failing fast with the variable's name.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const DATA_DIR = path.resolve(process.cwd(), 'data');

/** `N/second|minute|hour|day`; empty or unset means no limit. */
const rate = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z.string().regex(/^\d+\/(second|minute|hour|day)$/, 'expected N/second|minute|hour|day').optional(),
);

const boolish = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  /** Processes serving one port (node:cluster); 1 serves from the main process. */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(1),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:.+|mysql:\/\/.+|mariadb:\/\/.+)$/, 'expected sqlite:<path>, sqlite::memory: or mysql://user:pass@host:port/db')
    .default(`sqlite:${path.join(DATA_DIR, 'snippets.sqlite3')}`),
  /** Comma-separated mysql:// URLs of read replicas (MySQL/MariaDB only): SELECTs go there, writes to DATABASE_URL. */
  DATABASE_REPLICA_URLS: z
    .string()
    .default('')
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^(mysql|mariadb):\/\/.+/, 'expected mysql://user:pass@host:port/db URLs'))),
  /** Connections per process to MySQL/MariaDB (and to each replica). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
  /**
   * SQLite only. NORMAL, WAL's recommended level, syncs the log at checkpoints: a commit survives a crash of the process,
   * and one made just before a power cut may be rolled back. FULL syncs at every commit.
   */
  SQLITE_SYNCHRONOUS: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(['NORMAL', 'FULL']).default('NORMAL')),
  /**
   * SQLite only: how long a write waits for another process's write lock on the file before it is answered 503 with
   * Retry-After (writes of one process never wait for each other: they share one connection).
   */
  SQLITE_BUSY_TIMEOUT_MS: z.coerce.number().int().min(0).max(600000).default(5000),
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
  ACCESS_TOKEN_EXPIRES_IN: z.coerce.number().int().positive().default(36000),
  THROTTLE_ANON: rate,
  THROTTLE_USER: rate,
  THROTTLE_LOGIN: rate.default('10/minute'),
  TRUST_PROXY: boolish.default(false),
  HIGHLIGHT_TIMEOUT_MS: z.coerce.number().int().positive().default(2000),
  HIGHLIGHT_WORKERS: z.coerce.number().int().positive().default(Math.max(1, os.availableParallelism())),
  // Read by the CLI's createuser and changepassword only, so a password need not appear in argv.
  SNIPPETS_PASSWORD: z.string().optional(),
  PASSWORD_ITERATIONS: z.coerce.number().int().min(1000).default(260000),
  LOG_LEVEL: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('info'),
});

export type Config = z.infer<typeof EnvSchema> & { SECRET_KEY: string };

/** Parses an environment (process.env by default); throws naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
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
