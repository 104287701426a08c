// Account operations shared by every authentication scheme and the CLI.
import { User } from '../models';
import { select } from '../reads';
import { credentialKey, forget, recallVerified, rememberVerified } from './credential-cache';
import { hashPassword, UNUSABLE_HASH_FOR_TIMING, verifyPassword } from './passwords';

export interface AuthUser {
  id: number;
  username: string;
}

interface Account extends AuthUser {
  password: string;
}

async function accountByUsername(username: string): Promise<Account | undefined> {
  const [row] = await select<Account>('SELECT id, username, password FROM users WHERE username = ?', [username]);
  return row;
}

/** Whether this exact pair passed a check within the cache's TTL (Basic skips the guessing guard for it). */
export function recentlyVerified(username: string, password: string): boolean {
  return recallVerified(credentialKey(username, password)) !== undefined;
}

/**
 * The user whose password matches, or null; unknown usernames cost the same as wrong passwords.
 * A pair verified in the last minute is accepted on a keyed-hash match while the stored hash is
 * unchanged, so a password change (in any process) ends it at once.
 */
export async function checkCredentials(username: string, password: string): Promise<AuthUser | null> {
  const key = credentialKey(username, password);
  const account = await accountByUsername(username);
  const remembered = recallVerified(key);
  if (remembered && account && remembered.userId === account.id && remembered.passwordHash === account.password) {
    return { id: account.id, username: account.username };
  }
  if (remembered) forget(key);
  const ok = await verifyPassword(password, account?.password ?? UNUSABLE_HASH_FOR_TIMING);
  if (!ok || !account) return null;
  rememberVerified(key, { userId: account.id, passwordHash: account.password });
  return { id: account.id, username: account.username };
}

export async function createUser(
  username: string,
  password: string,
  opts: { email?: string; superuser?: boolean; iterations?: number } = {},
): Promise<AuthUser> {
  const user = await User.create({
    username,
    password: await hashPassword(password, opts.iterations),
    email: opts.email ?? '',
    is_superuser: opts.superuser ?? false,
  });
  return { id: user.id, username: user.username };
}

/** Returns false when the user does not exist. A new hash also invalidates every remembered Basic pair. */
export async function setPassword(username: string, password: string, iterations?: number): Promise<boolean> {
  const [count] = await User.update({ password: await hashPassword(password, iterations) }, { where: { username } });
  return count > 0;
}
