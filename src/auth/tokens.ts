// API tokens: one key per user, returned again on every issue; looked up by digest.
import { select } from '../reads';
import { database } from '../db';
import { randomKey, sha256 } from './digest';
import type { AuthUser } from './users';

export interface TokenRecord {
  key: string;
  user: AuthUser;
}

/** The user's key, created on first use. */
export async function tokenFor(user: AuthUser): Promise<string> {
  const [existing] = await select<{ key: string }>('SELECT `key` FROM tokens WHERE user_id = ?', [user.id]);
  if (existing) return existing.key;
  const key = randomKey(20);
  try {
    await database().getQueryInterface().bulkInsert('tokens', [{ user_id: user.id, key, key_digest: sha256(key), created: new Date() }]);
    return key;
  } catch {
    // Two first requests raced: the other one's key stands.
    const [row] = await select<{ key: string }>('SELECT `key` FROM tokens WHERE user_id = ?', [user.id]);
    if (!row) throw new Error('token could not be created');
    return row.key;
  }
}

export async function userForToken(key: string): Promise<AuthUser | undefined> {
  const [row] = await select<AuthUser>('SELECT u.id, u.username FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.key_digest = ?', [sha256(key)]);
  return row;
}
