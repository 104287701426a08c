// Personal access token rows: inserted, listed and deleted per user through the PersonalToken model; a request's key
// looked up by its digest ahead of other reads (select.ts lookup), and its last use written at most once a minute.
import { Op } from 'sequelize';
import type { Store } from './database';
import { lookup, select } from './select';
import { STORED_BYTES, type StoredBytesColumn } from './snippets/usage';

export interface PersonalTokenRow {
  id: number;
  name: string;
  scopes: string;
  created: Date;
  expires: Date;
  last_used: Date | null;
}

/** What a request's key finds: the token and its active user. */
export interface PersonalTokenMatch extends StoredBytesColumn {
  id: number;
  key_digest: string;
  scopes: string;
  expires: Date | string;
  last_used: Date | string | null;
  user_id: number;
  username: string;
}

export async function insertPersonalToken(
  store: Store,
  row: { userId: number; name: string; digest: string; scopes: string; created: Date; expires: Date },
): Promise<PersonalTokenRow> {
  const created = await store.models.PersonalToken.create({
    user_id: row.userId,
    name: row.name,
    key_digest: row.digest,
    scopes: row.scopes,
    created: row.created,
    expires: row.expires,
  });
  return { ...row, id: created.id, last_used: null };
}

/** The user's tokens, oldest first, expired ones too (never a key: none is stored). */
export function personalTokensOf(store: Store, userId: number): Promise<PersonalTokenRow[]> {
  return select<PersonalTokenRow>(
    store,
    'SELECT id, name, scopes, created, expires, last_used FROM personal_tokens WHERE user_id = ? ORDER BY id',
    [userId],
  );
}

export function personalTokenByDigest(store: Store, digest: string): Promise<PersonalTokenMatch | undefined> {
  return lookup<PersonalTokenMatch>(
    store,
    `SELECT t.id, t.key_digest, t.scopes, t.expires, t.last_used, u.id AS user_id, u.username, ${STORED_BYTES} FROM personal_tokens t JOIN users u ON u.id = t.user_id WHERE t.key_digest = ? AND u.is_active = 1`,
    [digest],
  );
}

/** Deletes one of the user's tokens; false when the user has no token of that id. */
export async function deletePersonalToken(store: Store, userId: number, id: number): Promise<boolean> {
  return (await store.models.PersonalToken.destroy({ where: { id, user_id: userId } })) > 0;
}

/** Deletes every token of the user; how many went. */
export function deletePersonalTokensOf(store: Store, userId: number): Promise<number> {
  return store.models.PersonalToken.destroy({ where: { user_id: userId } });
}

/** Notes a use at `now` unless one at `since` or later is noted already (another process may have noted it first). */
export async function notePersonalTokenUse(store: Store, id: number, now: Date, since: Date): Promise<void> {
  await store.models.PersonalToken.update(
    { last_used: now },
    { where: { id, [Op.or]: [{ last_used: null }, { last_used: { [Op.lt]: since } }] } },
  );
}
