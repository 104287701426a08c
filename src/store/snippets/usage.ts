// A user's storage (docs/operations.md "Storage per user"): user_storage.stored_bytes, the bytes of every revision their
// snippets keep, changed in the transaction of each save and delete that changes them, and checked there against
// USER_QUOTA_BYTES; and the biggest users, for `snippets usage`. The count is a save's last statement before its
// COMMIT: on MySQL/MariaDB its row stays locked until then (migration 0019-user-storage).
import { OverQuota } from '../../refusal';
import type { AuthUser } from '../../requester';
import type { Store } from '../database';
import { select } from '../select';
import type { Tx } from '../transaction';

/**
 * Adds `delta` bytes to the owner's count. A growth that would pass the quota changes nothing and throws OverQuota
 * (the transaction then stores nothing); a save that frees space always goes through, even for a user already past a
 * quota lowered since. The check and the addition are one UPDATE, so two saves at once cannot both pass it. A user
 * without a row yet (their first save) gets one; two first saves at once: on MySQL/MariaDB one loses a deadlock and is
 * run again (src/store/retry.ts), on SQLite the writes are one at a time.
 */
export async function charge(store: Pick<Store, 'quotaBytes'>, tx: Tx, ownerId: number, delta: number): Promise<void> {
  if (delta === 0) return;
  const quota = store.quotaBytes;
  if (delta < 0 || quota === 0) {
    const changed = await tx.change(
      'UPDATE user_storage SET stored_bytes = CASE WHEN stored_bytes + ? > 0 THEN stored_bytes + ? ELSE 0 END WHERE user_id = ?',
      [delta, delta, ownerId],
    );
    if (!changed && delta > 0) await firstCount(tx, ownerId, delta);
    return;
  }
  if (
    await tx.change(
      'UPDATE user_storage SET stored_bytes = stored_bytes + ? WHERE user_id = ? AND stored_bytes + ? <= ?',
      [delta, ownerId, delta, quota],
    )
  )
    return;
  const [row] = await tx.selectForUpdate<{ stored: number }>(
    'SELECT stored_bytes AS stored FROM user_storage WHERE user_id = ?',
    [ownerId],
  );
  if (!row && delta <= quota) return firstCount(tx, ownerId, delta);
  throw new OverQuota(quota, Number(row?.stored ?? 0));
}

async function firstCount(tx: Tx, ownerId: number, bytes: number): Promise<void> {
  await tx.insert('INSERT INTO user_storage (user_id, stored_bytes) VALUES (?, ?)', [ownerId, bytes]);
}

/**
 * The user's stored bytes as a column of a credential's lookup whose user is `u`: a create's early check
 * (assertRoomFor) then goes by the count read with the credential, with no statement of its own (a statement on a
 * reader: a create 1.74 -> 1.50 CPU ms, docs/benchmarks.md "Lookups by key on the main thread…"). NULL before their
 * first save.
 */
export const STORED_BYTES = '(SELECT c.stored_bytes FROM user_storage c WHERE c.user_id = u.id) AS stored_bytes';

/** The column STORED_BYTES adds to a row. */
export interface StoredBytesColumn {
  stored_bytes: number | string | null;
}

/** The user a credential's lookup found, with the count STORED_BYTES read (0 before their first save). */
export const userWithStoredBytes = (id: number, username: string, row: StoredBytesColumn): AuthUser => ({
  id,
  username,
  storedBytes: Number(row.stored_bytes ?? 0),
});

/** The owner's stored bytes: 0 before their first save. */
async function storedBytes(store: Store, ownerId: number): Promise<number> {
  const [row] = await select<{ stored: number }>(
    store,
    'SELECT stored_bytes AS stored FROM user_storage WHERE user_id = ?',
    [ownerId],
  );
  return Number(row?.stored ?? 0);
}

/**
 * Refuses a create that cannot fit before it is rendered (a highlighting worker's time, up to its deadline). It goes
 * by the count read with the request's credential (AuthUser.storedBytes) when that says the create fits; otherwise by
 * one read by key, so that a refusal is judged on the count as it is now (a delete since may have freed space).
 * charge() in the transaction stays the check that counts; this one only saves the work of a sure refusal.
 */
export async function assertRoomFor(store: Store, owner: AuthUser, bytes: number): Promise<void> {
  const quota = store.quotaBytes;
  if (quota === 0) return;
  if (owner.storedBytes !== undefined && owner.storedBytes + bytes <= quota) return;
  const stored = await storedBytes(store, owner.id);
  if (stored + bytes > quota) throw new OverQuota(quota, stored);
}

export interface UserUsage {
  username: string;
  snippets: number;
  revisions: number;
  bytes: number;
}

/** The `limit` users whose snippets hold the most bytes, biggest first (a scan of users; the counts per user by index). */
export async function biggestUsers(store: Store, limit: number): Promise<UserUsage[]> {
  const rows = await select<UserUsage>(
    store,
    `SELECT u.username AS username, COALESCE(c.stored_bytes, 0) AS bytes,
       (SELECT COUNT(*) FROM snippets s WHERE s.owner_id = u.id) AS snippets,
       (SELECT COUNT(*) FROM snippets s JOIN snippet_revisions r ON r.snippet_id = s.id WHERE s.owner_id = u.id) AS revisions
     FROM users u LEFT JOIN user_storage c ON c.user_id = u.id ORDER BY bytes DESC, u.id LIMIT ${limit}`,
  );
  return rows.map((r) => ({
    username: r.username,
    snippets: Number(r.snippets),
    revisions: Number(r.revisions),
    bytes: Number(r.bytes),
  }));
}
