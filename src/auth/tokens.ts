// API tokens: one key per user, returned again on every issue; looked up by digest.
import type { Store } from '../store/database';
import { insertToken, tokenKeyOf, userByTokenDigest } from '../store/tokens';
import { randomKey, sha256 } from './digest';
import type { AuthUser } from './users';

export interface TokenRecord {
  key: string;
  user: AuthUser;
}

/** The user's key, created on first use. */
export async function tokenFor(store: Store, user: AuthUser): Promise<string> {
  const existing = await tokenKeyOf(store, user.id);
  if (existing) return existing;
  const key = randomKey(20);
  if (await insertToken(store, user.id, key, sha256(key))) return key;
  // Two first requests raced: the other one's key stands.
  const stored = await tokenKeyOf(store, user.id);
  if (!stored) throw new Error('token could not be created');
  return stored;
}

export async function userForToken(store: Store, key: string): Promise<AuthUser | undefined> {
  return userByTokenDigest(store, sha256(key));
}
