// API token rows: one per user, the key kept for showing again and its digest for lookups.
import { QueryTypes } from 'sequelize';
import type { Store } from './database';
import { isDuplicate } from './errors';
import { lookup, select } from './select';
import { STORED_BYTES, userWithStoredBytes, type StoredBytesColumn } from './snippets/usage';
import type { AuthUser } from '../requester';

export async function tokenKeyOf(store: Store, userId: number): Promise<string | undefined> {
  const [row] = await select<{ key: string }>(store, 'SELECT `key` FROM tokens WHERE user_id = ?', [userId]);
  return row?.key;
}

/** Stores the user's key; false when the user has one already (another request made it first). */
export async function insertToken(store: Store, userId: number, key: string, digest: string): Promise<boolean> {
  try {
    await store.sequelize
      .getQueryInterface()
      .bulkInsert('tokens', [{ user_id: userId, key, key_digest: digest, created: new Date() }]);
    return true;
  } catch (err) {
    if (isDuplicate(err)) return false;
    throw err;
  }
}

/** The active user whose key has this digest, with their stored bytes (a create's early quota check). */
export async function userByTokenDigest(store: Store, digest: string): Promise<AuthUser | undefined> {
  const row = await lookup<{ id: number; username: string } & StoredBytesColumn>(
    store,
    `SELECT u.id, u.username, ${STORED_BYTES} FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.key_digest = ? AND u.is_active = 1`,
    [digest],
  );
  return row && userWithStoredBytes(row.id, row.username, row);
}

/** Deletes the user's key; false when they had none. */
export async function deleteToken(store: Store, userId: number): Promise<boolean> {
  const deleted = await store.sequelize.query('DELETE FROM tokens WHERE user_id = ?', {
    replacements: [userId],
    type: QueryTypes.BULKDELETE,
  });
  return Boolean(deleted);
}
