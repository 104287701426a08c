// OAuth 2.0 rows: clients (secret digests) and access/refresh token pairs (digests only).
import { QueryTypes } from 'sequelize';
import type { Store } from './database';
import { lookup, select } from './select';

export interface TokenPairRow {
  id: number;
  user_id: number;
  client_id: number;
  scope: string;
  username: string;
}

export async function insertClient(store: Store, name: string, clientId: string, secretHash: string): Promise<void> {
  await store.sequelize
    .getQueryInterface()
    .bulkInsert('oauth_clients', [{ name, client_id: clientId, secret_hash: secretHash }]);
}

export async function clientByClientId(
  store: Store,
  clientId: string,
): Promise<{ id: number; secret_hash: string } | undefined> {
  const [row] = await select<{ id: number; secret_hash: string }>(
    store,
    'SELECT id, secret_hash FROM oauth_clients WHERE client_id = ?',
    [clientId],
  );
  return row;
}

export async function insertTokenPair(
  store: Store,
  pair: { accessDigest: string; refreshDigest: string; userId: number; clientId: number; scope: string; expires: Date },
): Promise<void> {
  await store.sequelize.getQueryInterface().bulkInsert('oauth_tokens', [
    {
      access_digest: pair.accessDigest,
      refresh_digest: pair.refreshDigest,
      user_id: pair.userId,
      client_id: pair.clientId,
      scope: pair.scope,
      expires: pair.expires,
    },
  ]);
}

export async function tokenPairByRefreshDigest(store: Store, digest: string): Promise<TokenPairRow | undefined> {
  const [row] = await select<TokenPairRow>(
    store,
    'SELECT t.id, t.user_id, t.client_id, t.scope, u.username FROM oauth_tokens t JOIN users u ON u.id = t.user_id WHERE t.refresh_digest = ? AND u.is_active = 1',
    [digest],
  );
  return row;
}

/** Deletes the pair by id and digest; false when it was gone already (of two concurrent refreshes, one wins). */
export async function deleteTokenPair(store: Store, id: number, refreshDigest: string): Promise<boolean> {
  const deleted = await store.sequelize.query('DELETE FROM oauth_tokens WHERE id = ? AND refresh_digest = ?', {
    replacements: [id, refreshDigest],
    type: QueryTypes.BULKDELETE,
  });
  return Boolean(deleted);
}

export async function accessByDigest(
  store: Store,
  digest: string,
): Promise<{ id: number; username: string; scope: string; expires: string | Date } | undefined> {
  return lookup<{ id: number; username: string; scope: string; expires: string | Date }>(
    store,
    'SELECT u.id, u.username, t.scope, t.expires FROM oauth_tokens t JOIN users u ON u.id = t.user_id WHERE t.access_digest = ? AND u.is_active = 1',
    [digest],
  );
}

/** Every client, by id: what `snippets listclients` prints (never a secret: only its digest is stored anyway). */
export async function allClients(store: Store): Promise<{ client_id: string; name: string }[]> {
  return select<{ client_id: string; name: string }>(store, 'SELECT client_id, name FROM oauth_clients ORDER BY id');
}

/** Deletes the client and, by cascade, every token issued to it; false when there is no such client. */
export async function deleteClientByClientId(store: Store, clientId: string): Promise<boolean> {
  const deleted = await store.sequelize.query('DELETE FROM oauth_clients WHERE client_id = ?', {
    replacements: [clientId],
    type: QueryTypes.BULKDELETE,
  });
  return Boolean(deleted);
}

/** Deletes every access/refresh pair of the user, whichever client holds it; how many went. */
export async function deleteUserTokenPairs(store: Store, userId: number): Promise<number> {
  return Number(
    await store.sequelize.query('DELETE FROM oauth_tokens WHERE user_id = ?', {
      replacements: [userId],
      type: QueryTypes.BULKDELETE,
    }),
  );
}
