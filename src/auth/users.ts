// Account operations shared by every authentication scheme and the CLI.
import { accountByUsername, insertUser, updatePasswordHash, userOf, type AuthUser } from '../users/store';
import type { Store } from '../store/database';
import type { Config } from '../config';
import type { CredentialCache } from '../credential-cache';
import { hashPassword, verifyPassword } from './passwords';

/**
 * What a password check uses: the database, the runtime's cache of pairs verified lately, and PASSWORD_ITERATIONS,
 * the cost of a check that finds no password to compare with.
 */
export interface CheckDeps {
  store: Store;
  credentials: CredentialCache;
  config: Pick<Config, 'PASSWORD_ITERATIONS'>;
}

export type { AuthUser };

/**
 * The user, when this exact pair passed a check within the cache's TTL and the stored hash is unchanged (a password
 * change, in any process, ends it at once); otherwise null. It never hashes a password: one lookup by username.
 */
export async function recentlyVerifiedUser(
  runtime: CheckDeps,
  username: string,
  password: string,
): Promise<AuthUser | null> {
  const { credentials } = runtime;
  const key = credentials.key(username, password);
  const remembered = credentials.recall(key);
  if (!remembered) return null;
  const account = await accountByUsername(runtime.store, username);
  if (account && remembered.userId === account.id && remembered.passwordHash === account.password) {
    return userOf(account);
  }
  credentials.forget(key);
  return null;
}

/** The user whose password matches, or null; unknown usernames cost the same as wrong passwords. */
export async function checkCredentials(
  runtime: CheckDeps,
  username: string,
  password: string,
): Promise<AuthUser | null> {
  const recent = await recentlyVerifiedUser(runtime, username, password);
  if (recent) return recent;
  const account = await accountByUsername(runtime.store, username);
  const ok = await verifyPassword(password, account?.password ?? null, runtime.config.PASSWORD_ITERATIONS);
  if (!ok || !account) return null;
  runtime.credentials.remember(runtime.credentials.key(username, password), {
    userId: account.id,
    passwordHash: account.password,
  });
  return userOf(account);
}

export async function createUser(
  store: Store,
  username: string,
  password: string,
  opts: { email?: string; iterations?: number } = {},
): Promise<AuthUser> {
  const hash = await hashPassword(password, opts.iterations);
  return insertUser(store, { username, password: hash, email: opts.email ?? '' });
}

/** Returns false when the user does not exist. A new hash also invalidates every remembered Basic pair. */
export async function setPassword(
  store: Store,
  username: string,
  password: string,
  iterations?: number,
): Promise<boolean> {
  return updatePasswordHash(store, username, await hashPassword(password, iterations));
}
