// Personal access tokens (docs/authentication.md "Personal access tokens"): a key of 256 random bits behind the prefix
// `snp_`, so logs and secret scanners can tell it; shown once at creation, stored as its SHA-256 digest (a key that
// random needs no slow hash: no guess can be tested against a digest of it); scoped and expiring; its last use noted at
// most once a minute, so a read costs a write only that often.
import type { Store } from '../store/database';
import {
  deletePersonalToken,
  insertPersonalToken,
  notePersonalTokenUse,
  personalTokenByDigest,
  personalTokensOf,
  type PersonalTokenRow,
} from '../store/personal-tokens';
import { randomKey, safeEqual, sha256 } from './digest';
import { userWithStoredBytes } from '../store/snippets/usage';
import type { AuthUser } from './users';

export const PERSONAL_TOKEN_PREFIX = 'snp_';
export const SCOPES = ['read', 'write'] as const;
export type Scope = (typeof SCOPES)[number];

/** A last use this recent is not written again. */
export const LAST_USED_GRANULARITY_MS = 60_000;

export interface PersonalTokenInfo {
  id: number;
  name: string;
  scopes: Scope[];
  created: Date;
  expires: Date;
  last_used: Date | null;
}

/** Who a personal token acts as, and what it may do: the scheme's auth information. */
export interface PersonalTokenGrant {
  user: AuthUser;
  tokenId: number;
  scopes: Scope[];
}

export const isPersonalTokenKey = (key: string) => key.startsWith(PERSONAL_TOKEN_PREFIX);

const dateOf = (value: Date | string) => (value instanceof Date ? value : new Date(value));
const scopesOf = (stored: string) => SCOPES.filter((s) => stored.split(' ').includes(s));

function infoOf(row: PersonalTokenRow): PersonalTokenInfo {
  return {
    id: row.id,
    name: row.name,
    scopes: scopesOf(row.scopes),
    created: dateOf(row.created),
    expires: dateOf(row.expires),
    last_used: row.last_used === null ? null : dateOf(row.last_used),
  };
}

/** A new token of the user; its key is in the answer and nowhere else. `now` is the clock's reading (ms). */
export async function createPersonalToken(
  store: Store,
  user: AuthUser,
  input: { name: string; scopes: readonly Scope[]; expiresIn: number },
  now: number,
): Promise<PersonalTokenInfo & { key: string }> {
  const key = PERSONAL_TOKEN_PREFIX + randomKey(32, 'base64url');
  const scopes = SCOPES.filter((s) => input.scopes.includes(s));
  const row = await insertPersonalToken(store, {
    userId: user.id,
    name: input.name,
    digest: sha256(key),
    scopes: scopes.join(' '),
    created: new Date(now),
    expires: new Date(now + input.expiresIn * 1000),
  });
  return { ...infoOf(row), key };
}

export async function listPersonalTokens(store: Store, user: AuthUser): Promise<PersonalTokenInfo[]> {
  return (await personalTokensOf(store, user.id)).map(infoOf);
}

export function revokePersonalToken(store: Store, user: AuthUser, id: number): Promise<boolean> {
  return deletePersonalToken(store, user.id, id);
}

/**
 * The grant of a key: its user and scopes, when it is known, unexpired at `now` and its user active; else null, and
 * the caller refuses it as any wrong token. Notes the use (at most once a minute).
 */
export async function checkPersonalToken(store: Store, key: string, now: number): Promise<PersonalTokenGrant | null> {
  const digest = sha256(key);
  const row = await personalTokenByDigest(store, digest);
  // The row was found by its digest; compared again in constant time all the same.
  if (!row || !safeEqual(row.key_digest, digest)) return null;
  if (dateOf(row.expires).getTime() <= now) return null;
  const since = now - LAST_USED_GRANULARITY_MS;
  if (row.last_used === null || dateOf(row.last_used).getTime() < since)
    await notePersonalTokenUse(store, row.id, new Date(now), new Date(since));
  return { user: userWithStoredBytes(row.user_id, row.username, row), tokenId: row.id, scopes: scopesOf(row.scopes) };
}
