// Configuration: the environment parsed once, typed, failing fast with the variable's name.
import { existsSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/** ./data/: the default SQLite file, and the SECRET_KEY stored when none is given (src/store/secret-key.ts). */
export const DATA_DIR = path.resolve(process.cwd(), 'data');

const unsetIfEmpty = (v: unknown) => (v === '' ? undefined : v);

/** `N/second|minute|hour|day`; empty or unset means no limit. */
const rateValue = z
  .string()
  .regex(/^\d+\/(second|minute|hour|day)$/, 'expected N/second|minute|hour|day')
  .optional();
const rate = z.preprocess(unsetIfEmpty, rateValue);

/** Express's names for address ranges, accepted in a TRUST_PROXY list. */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  const maxBits = family === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= maxBits;
}

/**
 * Which proxies' X-Forwarded-* headers are believed, in Express's own forms: a hop count (the number of proxies in
 * front of the service; 0 or false: none) or a list of proxy addresses and subnets. `true` is refused: Express would
 * then take the left-most X-Forwarded-For entry, which the client itself writes, and every guess could come from
 * "a new address".
 */
const trustProxy = z.preprocess(unsetIfEmpty, z.string().optional()).transform((s, ctx): false | number | string[] => {
  const value = (s ?? 'false').trim().toLowerCase();
  if (['false', 'no', 'off', '0'].includes(value)) return false;
  if (/^\d{1,3}$/.test(value)) return Number(value);
  if (['true', 'yes', 'on'].includes(value)) {
    ctx.addIssue({
      code: 'custom',
      message:
        "true would believe the client's own X-Forwarded-For; give the number of proxies in front (1 behind one proxy) or their addresses",
    });
    return z.NEVER;
  }
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length && entries.every(isProxyAddress)) return entries;
  ctx.addIssue({
    code: 'custom',
    message:
      'expected false, a hop count, or proxy addresses/subnets (10.0.0.1, 10.0.0.0/8, loopback, ...) separated by commas',
  });
  return z.NEVER;
});

/** A whole number in [min, max]; empty or unset gives the fallback. One message for every way it can be wrong. */
function integer(min: number, max: number | undefined, fallback: number) {
  const message =
    max === undefined ? `expected an integer of at least ${min}` : `expected an integer from ${min} to ${max}`;
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

/** true/false in the forms people write; unset is `fallback`. */
function flag(fallback: boolean) {
  return z
    .preprocess(unsetIfEmpty, z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']).optional())
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes', 'on'].includes(v)));
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * An OpenID Connect issuer: https, or http on this machine only (a provider beside the service, the tests' own), as
 * RFC 8252 section 8.3 allows loopback redirects: anywhere else http would carry the codes and tokens in clear.
 */
const issuerUrl = z.preprocess(
  unsetIfEmpty,
  z
    .url({ protocol: /^https?$/, error: 'expected the issuer URL, https://...' })
    .refine((u) => {
      const url = new URL(u);
      return url.protocol === 'https:' || LOOPBACK_HOSTS.has(url.hostname);
    }, 'expected https:// (http only on 127.0.0.1, localhost or [::1])')
    .refine((u) => !new URL(u).search && !new URL(u).hash, 'expected no query or fragment')
    .optional(),
);

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
  /** false: a starting service applies no migration and refuses a schema that is behind (migrate in a release step). */
  MIGRATE_ON_START: z
    .preprocess(unsetIfEmpty, z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']).optional())
    .transform((v) => v === undefined || ['true', '1', 'yes', 'on'].includes(v)),
  /**
   * A connection on which no byte moves, either way, for this long while a request is read or answered is closed: a
   * client that stops reading its answer (or sending its request) holds nothing for longer.
   */
  SOCKET_TIMEOUT_MS: integer(1, 3600000, 30000),
  DATABASE_URL: z
    .string()
    .regex(
      /^(sqlite:.+|mysql:\/\/.+|mariadb:\/\/.+)$/,
      'expected sqlite:<path>, sqlite::memory: or mysql://user:pass@host:port/db',
    )
    .default(`sqlite:${path.join(DATA_DIR, 'snippets.sqlite3')}`)
    .superRefine((url, ctx) => {
      const problem = sqliteDirectoryProblem(url);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  /** Comma-separated mysql:// URLs of read replicas (MySQL/MariaDB only): SELECTs go there, writes to DATABASE_URL. */
  DATABASE_REPLICA_URLS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^(mysql|mariadb):\/\/.+/, 'expected mysql://user:pass@host:port/db URLs'))),
  /** Connections per process to MySQL/MariaDB (and to each replica). */
  DATABASE_POOL_MAX: integer(1, 1000, 10),
  /**
   * SQLite only. NORMAL, WAL's recommended level, syncs the log at checkpoints: a commit survives a crash of the process,
   * and one made just before a power cut may be rolled back. FULL syncs at every commit.
   */
  SQLITE_SYNCHRONOUS: z.preprocess(
    (v) => (typeof v === 'string' ? v.toUpperCase() : v),
    z.enum(['NORMAL', 'FULL']).default('NORMAL'),
  ),
  /**
   * SQLite only: how long a write waits for another process's write lock on the file before it is answered 503 with
   * Retry-After (writes of one process never wait for each other: they share one connection).
   */
  SQLITE_BUSY_TIMEOUT_MS: integer(0, 600000, 5000),
  /**
   * SQLite file with WEB_CONCURRENCY > 1: how long a write transaction waits in line for the write turn the primary
   * hands out (src/store/write-turn.ts) before it is answered 503 with Retry-After; also how long the primary lets one
   * holder keep the turn before passing it on. On any SQLite file, also how long the writer thread's group of snippet
   * writes waits for the file's lock, which it takes itself (src/store/sqlite/take-lock.ts).
   */
  SQLITE_WRITE_TURN_TIMEOUT_MS: integer(100, 600000, 5000),
  /**
   * MySQL/MariaDB: the deadline of a connect, of waiting for a pooled connection, and of one query. Past it the request
   * answers 503 with Retry-After rather than waiting for a server that does not answer.
   */
  DATABASE_TIMEOUT_MS: integer(100, 600000, 5000),
  /**
   * MySQL/MariaDB: connections per process (to each server read) of the searches' own pool: searches never take the
   * read pool's connections, nor wait in its line (SQLite: one reader of their own).
   */
  SEARCH_POOL_MAX: integer(1, 1000, 2),
  /**
   * The deadline of one statement of a search (a list with `search` terms), its wait for the search lane included: past
   * it the statement is stopped in the engine and the request answers 503 with Retry-After.
   */
  SEARCH_TIMEOUT_MS: integer(100, 600000, 5000),
  /**
   * The snippets one page of a search examines at most (those its other filters leave, in list order): a page that
   * finds fewer matches among them than its limit answers those, with the cursor of the rest (docs/api.md).
   */
  SEARCH_SCAN_ROWS: integer(10, 1_000_000, 2000),
  /** redis://[user:pass@]host:port[/db] (rediss:// for TLS): sessions and throttle counters live there; unset, in the database. */
  REDIS_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .url({
        protocol: /^rediss?$/,
        hostname: /./,
        error: 'expected redis://[user:pass@]host:port[/db] or rediss://...',
      })
      .optional(),
  ),
  /** The deadline of a connect to Redis and of one command; a server silent that long is taken for hung and reconnected. */
  REDIS_TIMEOUT_MS: integer(100, 600000, 2000),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  AUTH_SCHEMES: z
    .string()
    .default('basic,session,token,oauth2')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(['basic', 'session', 'token', 'oauth2', 'oauth1'])).min(1)),
  API_AUTH_PREFIX: z.string().default('api-auth/'),
  /** false: the login page has no password form and refuses its POST (Basic and the token endpoints still take passwords). */
  PASSWORD_LOGIN: flag(true),
  /** OpenID Connect sign-in for the pages (docs/authentication.md "Single sign-on"): all three or none. */
  OIDC_ISSUER: issuerUrl,
  OIDC_CLIENT_ID: z.preprocess(unsetIfEmpty, z.string().optional()),
  OIDC_CLIENT_SECRET: z.preprocess(unsetIfEmpty, z.string().optional()),
  /** The provider's name on the login page's button: "Sign in with <OIDC_NAME>". */
  OIDC_NAME: z.preprocess(unsetIfEmpty, z.string().max(100).default('OpenID Connect')),
  /** The claim (of the ID token, else of the UserInfo answer) a new user's username is taken from. */
  OIDC_USERNAME_CLAIM: z.preprocess(unsetIfEmpty, z.string().default('preferred_username')),
  /** The deadline of each request to the provider (discovery, the code exchange, UserInfo); past it the page answers 503. */
  OIDC_TIMEOUT_MS: integer(100, 600000, 5000),
  TOKEN_AUTH_PATH: z.string().default('api-token-auth/'),
  ACCESS_TOKEN_EXPIRES_IN: integer(1, undefined, 36000),
  /** A personal access token's lifetime in seconds when its creator gives no `expires_in` (docs/authentication.md). */
  PERSONAL_TOKEN_EXPIRES_IN: integer(60, undefined, 90 * 24 * 3600),
  /** The longest `expires_in` a personal access token may be given; every token expires. */
  PERSONAL_TOKEN_EXPIRES_MAX: integer(60, undefined, 365 * 24 * 3600),
  /**
   * Who may read: `anyone` (the contract), or `authenticated`, a private deployment where every read (REST, /trpc, the
   * pages, raw, highlight, the users, search) needs a signed-in requester; the probes and the API reference stay open.
   */
  READ_ACCESS: z.enum(['anyone', 'authenticated']).default('anyone'),
  THROTTLE_ANON: rate,
  /**
   * On by default, at a rate no person reaches (docs/configuration.md): a script's loop is what it stops. Only an empty
   * value turns it off.
   */
  THROTTLE_USER: z.string().default('1000/minute').transform(unsetIfEmpty).pipe(rateValue),
  /** Unlike the two above, on by default: unset is 10/minute, and only an empty value turns it off. */
  THROTTLE_LOGIN: z.string().default('10/minute').transform(unsetIfEmpty).pipe(rateValue),
  TRUST_PROXY: trustProxy,
  /**
   * The most calls one /trpc batch (`/trpc/a,b,c?batch=1`) may hold; past it the batch is refused 400 before any call
   * runs. Each call is counted against THROTTLE_ANON / THROTTLE_USER as a request of its own.
   */
  TRPC_MAX_BATCH: integer(1, 1000, 10),
  HIGHLIGHT_TIMEOUT_MS: integer(1, undefined, 2000),
  /** The newest revisions of each snippet, all kept (docs/api.md "History"); 0 keeps every revision, thinning none. */
  SNIPPET_REVISIONS_KEEP: integer(0, undefined, 50),
  /** Older than those: the last revision of each UTC day, for this many days at most (the oldest dropped first). */
  SNIPPET_REVISIONS_DAILY: integer(0, undefined, 100),
  /**
   * Bytes of title and code a user's snippets may keep, over every revision kept (docs/operations.md "Storage per
   * user"); a save past it is refused with 413. 0: no quota.
   */
  USER_QUOTA_BYTES: integer(0, undefined, 100 * 1024 * 1024),
  /**
   * Snippet writes (create, update, delete) the service works on at once while reads are in flight (or were within a
   * second), highlighting and transaction included, split evenly between its WEB_CONCURRENCY processes (rounded up);
   * the others wait in line, first come first served, DATABASE_TIMEOUT_MS at most (then 503 with Retry-After). A crowd
   * of writers so leaves the cores to the reads beside it, and has them all when there are none (docs/configuration.md).
   */
  SNIPPET_WRITE_CONCURRENCY: integer(1, 1000, 12),
  HIGHLIGHT_WORKERS: integer(1, undefined, Math.max(1, os.availableParallelism())),
  /** Worker threads for diffs of more than a few changed lines, apart from the highlighting ones (a small change has one of its own). */
  DIFF_WORKERS: integer(1, 64, 1),
  /** The deadline of one diff, waiting and running; past it the diff answers 422. */
  DIFF_TIMEOUT_MS: integer(1, 600000, 2000),
  /** The most changed lines (removed plus added) a diff looks for; past them it answers 422 at once. 0: only the deadline bounds it. */
  DIFF_MAX_CHANGED_LINES: integer(0, undefined, 2000),
  /** Expensive requests (diffs, searches) one client (a user, or an address) may have in flight; the next is answered 429. */
  EXPENSIVE_CONCURRENCY: integer(1, 1000, 2),
  // Read by the CLI's createuser and changepassword only, so a password need not appear in argv.
  SNIPPETS_PASSWORD: z.string().optional(),
  PASSWORD_ITERATIONS: integer(1000, undefined, 260000),
  LOG_LEVEL: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('info'),
});

/** SECRET_KEY is undefined when unset: the service then uses the one stored under ./data/ (withStoredSecretKey). */
export type Config = z.infer<typeof EnvSchema>;

/** Every variable the configuration reads (.env.example and docs/configuration.md list them all; a test keeps them in step). */
export const CONFIG_VARIABLES = Object.keys(EnvSchema.shape) as readonly (keyof typeof EnvSchema.shape)[];

/** Values a message must not repeat: secrets, and URLs that may carry a password. */
const UNQUOTED = new Set([
  'SECRET_KEY',
  'SNIPPETS_PASSWORD',
  'DATABASE_URL',
  'DATABASE_REPLICA_URLS',
  'REDIS_URL',
  'OIDC_CLIENT_SECRET',
]);

const OIDC_REQUIRED = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;

/** OpenID Connect sign-in is on with all three of OIDC_REQUIRED, off with none; some but not all is a mistake. */
function oidcProblem(config: Config): string | undefined {
  const missing = OIDC_REQUIRED.filter((name) => config[name] === undefined);
  if (missing.length === 0 || missing.length === OIDC_REQUIRED.length) return undefined;
  return `${missing.join(', ')}: needed with ${OIDC_REQUIRED.filter((n) => !missing.includes(n)).join(', ')} (OpenID Connect sign-in takes all three)`;
}

/** The OpenID Connect provider the pages offer sign-in with, when one is configured. */
export function oidcProvider(
  config: Config,
): { issuer: string; clientId: string; clientSecret: string; name: string; usernameClaim: string } | undefined {
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret } = config;
  if (issuer === undefined || clientId === undefined || clientSecret === undefined) return undefined;
  return { issuer, clientId, clientSecret, name: config.OIDC_NAME, usernameClaim: config.OIDC_USERNAME_CLAIM };
}

/**
 * Parses an environment (process.env by default). Throws an Error whose message is one line naming every bad
 * variable, with the value given unless it may be secret: `config: PORT: expected an integer from 0 to 65535, got "eighty"`.
 * Reads nothing but `env` and writes nothing.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.superRefine((c, ctx) => {
    if (c.PERSONAL_TOKEN_EXPIRES_IN > c.PERSONAL_TOKEN_EXPIRES_MAX)
      ctx.addIssue({
        code: 'custom',
        path: ['PERSONAL_TOKEN_EXPIRES_IN'],
        message: `must not be more than PERSONAL_TOKEN_EXPIRES_MAX (${c.PERSONAL_TOKEN_EXPIRES_MAX})`,
      });
  }).safeParse(env);
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
  const problem = oidcProblem(parsed.data);
  if (problem) throw new Error(`config: ${problem}`);
  return parsed.data;
}
