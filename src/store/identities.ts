// OpenID Connect identity rows (user_identities, migration 0012): which user an issuer's subject signs in as.
import type { Store } from './database';
import { isDuplicate } from './errors';
import { lookup } from './select';

export interface IdentityOwner {
  id: number;
  username: string;
  active: boolean;
}

/** The user an identity belongs to, active or not; undefined for an identity never seen (nor linked). */
export async function identityOwner(store: Store, issuer: string, subject: string): Promise<IdentityOwner | undefined> {
  const row = await lookup<{ id: number; username: string; is_active: number | boolean }>(
    store,
    'SELECT u.id, u.username, u.is_active FROM user_identities i JOIN users u ON u.id = i.user_id WHERE i.issuer = ? AND i.subject = ?',
    [issuer, subject],
  );
  return row && { id: row.id, username: row.username, active: Boolean(row.is_active) };
}

/** Links an identity to a user; false when the identity is linked already (to this user or another). */
export async function insertIdentity(store: Store, userId: number, issuer: string, subject: string): Promise<boolean> {
  try {
    await store.models.UserIdentity.create({ userId, issuer, subject });
    return true;
  } catch (err) {
    if (isDuplicate(err)) return false;
    throw err;
  }
}

/** Deletes a user made a moment ago, who owns nothing yet (the identity it was made for went to another request). */
export async function deleteNewUser(store: Store, userId: number): Promise<void> {
  await store.models.User.destroy({ where: { id: userId } });
}
