// OAuth 2.0 state: clients (secrets hashed), access/refresh token pairs stored as SHA-256 digests, refresh revoking the old pair.
import { QueryTypes } from 'sequelize';
import { database } from '../db';
import { select } from '../reads';
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

export async function createClient(name: string, clientId = randomKey(20, 'base64url'), secret = randomKey(30, 'base64url')): Promise<{ clientId: string; secret: string }> {
  await database().getQueryInterface().bulkInsert('oauth_clients', [{ name, client_id: clientId, secret_hash: sha256(secret) }]);
  return { clientId, secret };
}

/** The client, when the secret matches (compared in constant time whether or not the client exists). */
export async function authenticateClient(clientId: string, secret: string): Promise<Client | null> {
  const [row] = await select<{ id: number; secret_hash: string }>('SELECT id, secret_hash FROM oauth_clients WHERE client_id = ?', [clientId]);
  const ok = safeEqual(sha256(secret), row?.secret_hash ?? sha256(`${secret}\0no such client`));
  return ok && row ? { id: row.id, clientId } : null;
}

export async function issueTokens(user: AuthUser, client: Client, expiresIn: number, scope = DEFAULT_SCOPE): Promise<IssuedTokens> {
  const access = randomKey(30, 'base64url');
  const refresh = randomKey(30, 'base64url');
  await database()
    .getQueryInterface()
    .bulkInsert('oauth_tokens', [
      { access_digest: sha256(access), refresh_digest: sha256(refresh), user_id: user.id, client_id: client.id, scope, expires: new Date(Date.now() + expiresIn * 1000) },
    ]);
  return { access_token: access, refresh_token: refresh, expires_in: expiresIn, scope };
}

/** Exchanges a refresh token of this client for a new pair; the old pair stops working. Null when unknown or another client's. */
export async function refreshTokens(refreshToken: string, client: Client, expiresIn: number): Promise<IssuedTokens | null> {
  const digest = sha256(refreshToken);
  const [row] = await select<{ id: number; user_id: number; client_id: number; scope: string; username: string }>(
    'SELECT t.id, t.user_id, t.client_id, t.scope, u.username FROM oauth_tokens t JOIN users u ON u.id = t.user_id WHERE t.refresh_digest = ?',
    [digest],
  );
  if (!row || row.client_id !== client.id) return null;
  // Deleting by id and digest: of two concurrent refreshes with the same token, only one deletes the row and wins.
  const deleted = await database().query('DELETE FROM oauth_tokens WHERE id = ? AND refresh_digest = ?', { replacements: [row.id, digest], type: QueryTypes.BULKDELETE });
  if (!deleted) return null;
  return issueTokens({ id: row.user_id, username: row.username }, client, expiresIn, row.scope);
}

export type AccessCheck = { user: AuthUser; scope: string } | 'expired' | 'unknown';

export async function checkAccessToken(token: string): Promise<AccessCheck> {
  const [row] = await select<{ id: number; username: string; scope: string; expires: string | Date }>(
    'SELECT u.id, u.username, t.scope, t.expires FROM oauth_tokens t JOIN users u ON u.id = t.user_id WHERE t.access_digest = ?',
    [sha256(token)],
  );
  if (!row) return 'unknown';
  if (new Date(row.expires).getTime() <= Date.now()) return 'expired';
  return { user: { id: row.id, username: row.username }, scope: row.scope };
}
