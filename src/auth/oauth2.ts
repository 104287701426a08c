// OAuth 2.0 state: clients (secrets hashed), access/refresh token pairs stored as SHA-256 digests, refresh revoking the old pair.
import type { Store } from '../store/database';
import {
  accessByDigest,
  clientByClientId,
  deleteTokenPair,
  insertClient,
  insertTokenPair,
  tokenPairByRefreshDigest,
} from '../store/oauth2';
import { randomKey, safeEqual, sha256 } from './digest';
import type { AuthUser } from './users';

export const DEFAULT_SCOPE = 'read write';

export interface Client {
  id: number;
  clientId: string;
}

export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  scope: string;
}

export async function createClient(
  store: Store,
  name: string,
  clientId = randomKey(20, 'base64url'),
  secret = randomKey(30, 'base64url'),
): Promise<{ clientId: string; secret: string }> {
  await insertClient(store, name, clientId, sha256(secret));
  return { clientId, secret };
}

/** The client, when the secret matches (compared in constant time whether or not the client exists). */
export async function authenticateClient(store: Store, clientId: string, secret: string): Promise<Client | null> {
  const row = await clientByClientId(store, clientId);
  const ok = safeEqual(sha256(secret), row?.secret_hash ?? sha256(`${secret}\0no such client`));
  return ok && row ? { id: row.id, clientId } : null;
}

/** `now` (ms since the epoch) is the clock's reading the expiry counts from. */
export async function issueTokens(
  store: Store,
  user: AuthUser,
  client: Client,
  expiresIn: number,
  now: number,
  scope = DEFAULT_SCOPE,
): Promise<IssuedTokens> {
  const access = randomKey(30, 'base64url');
  const refresh = randomKey(30, 'base64url');
  await insertTokenPair(store, {
    accessDigest: sha256(access),
    refreshDigest: sha256(refresh),
    userId: user.id,
    clientId: client.id,
    scope,
    expires: new Date(now + expiresIn * 1000),
  });
  return { access_token: access, refresh_token: refresh, expires_in: expiresIn, scope };
}

/** Exchanges a refresh token of this client for a new pair; the old pair stops working. Null when unknown or another client's. */
export async function refreshTokens(
  store: Store,
  refreshToken: string,
  client: Client,
  expiresIn: number,
  now: number,
): Promise<IssuedTokens | null> {
  const digest = sha256(refreshToken);
  const row = await tokenPairByRefreshDigest(store, digest);
  if (!row || row.client_id !== client.id) return null;
  // Of two concurrent refreshes with the same token, only one deletes the row and wins.
  if (!(await deleteTokenPair(store, row.id, digest))) return null;
  return issueTokens(store, { id: row.user_id, username: row.username }, client, expiresIn, now, row.scope);
}

export type AccessCheck = { user: AuthUser; scope: string } | 'expired' | 'unknown';

/** `now` (ms since the epoch) is the clock's reading: a test or an embedding may hand in its own clock. */
export async function checkAccessToken(store: Store, token: string, now: number): Promise<AccessCheck> {
  const row = await accessByDigest(store, sha256(token));
  if (!row) return 'unknown';
  if (new Date(row.expires).getTime() <= now) return 'expired';
  return { user: { id: row.id, username: row.username }, scope: row.scope };
}
