// Users: the public records (with the ids of their snippets), the account behind a password check, and account writes.
import type { User } from './schema';
import type { AuthUser } from '../requester';
import type { Store } from '../store/database';

export type { AuthUser };
import { lookup, select } from '../store/select';
import { PAGE_IDS, rowsWithin } from '../store/page-budget';
import { STORED_BYTES, userWithStoredBytes, type StoredBytesColumn } from '../store/snippets/usage';

/** A user with the stored password hash, for a password check. */
export interface Account extends AuthUser {
  password: string;
}

/** The account's user, its password hash left behind: the user goes on with the request, the hash never does. */
export const userOf = ({ password: _password, ...user }: Account): AuthUser => user;

/**
 * An active user's account, with their stored bytes: a deactivated user has no password that works (`snippets
 * deactivateuser`).
 */
export async function accountByUsername(store: Store, username: string): Promise<Account | undefined> {
  const row = await lookup<Account & StoredBytesColumn>(
    store,
    `SELECT u.id, u.username, u.password, ${STORED_BYTES} FROM users u WHERE u.username = ? AND u.is_active = 1`,
    [username],
  );
  return row && { ...userWithStoredBytes(row.id, row.username, row), password: row.password };
}

/** The active user a session names, with their stored bytes. */
export async function authUserById(store: Store, id: number): Promise<AuthUser | undefined> {
  const row = await lookup<AuthUser & StoredBytesColumn>(
    store,
    `SELECT u.id, u.username, ${STORED_BYTES} FROM users u WHERE u.id = ? AND u.is_active = 1`,
    [id],
  );
  return row && userWithStoredBytes(row.id, row.username, row);
}

export async function authUserByUsername(store: Store, username: string): Promise<AuthUser | undefined> {
  const [row] = await select<AuthUser>(store, 'SELECT id, username FROM users WHERE username = ?', [username]);
  return row;
}

export async function insertUser(
  store: Store,
  fields: { username: string; password: string; email: string },
): Promise<AuthUser> {
  const user = await store.models.User.create({
    username: fields.username,
    password: fields.password,
    email: fields.email,
  });
  return { id: user.id, username: user.username };
}

/** Returns false when the user does not exist. */
export async function updateActive(store: Store, username: string, active: boolean): Promise<boolean> {
  const [count] = await store.models.User.update({ is_active: active }, { where: { username } });
  return count > 0;
}

/**
 * Deletes the user; the foreign keys' ON DELETE CASCADE takes their snippets, API token, OAuth 2.0 tokens and OAuth 1.0a
 * tokens with it. A session of theirs names an id no user has any more (ids are not reused): it is anonymous.
 * Returns how many snippets went, or undefined when the user does not exist.
 */
export async function deleteUserCascading(store: Store, username: string): Promise<number | undefined> {
  const user = await store.models.User.findOne({ where: { username }, attributes: ['id'] });
  if (!user) return undefined;
  const [owned] = await select<{ n: number }>(store, 'SELECT COUNT(*) AS n FROM snippets WHERE owner_id = ?', [
    user.id,
  ]);
  await store.models.User.destroy({ where: { id: user.id } });
  return Number(owned?.n ?? 0);
}

/** Returns false when the user does not exist. */
export async function updatePasswordHash(store: Store, username: string, password: string): Promise<boolean> {
  const [count] = await store.models.User.update({ password }, { where: { username } });
  return count > 0;
}

/**
 * Up to `limit` users after id `after`, each with the ids of their snippets, no more than PAGE_IDS ids after the first
 * user's (src/store/page-budget.ts); and whether more follow. The users' counts first, then the users that fit and
 * their snippets, read as one range of owners in the (owner_id, created, id) index.
 */
export async function usersAfter(
  store: Store,
  after: number,
  limit: number,
): Promise<{ items: User[]; more: boolean }> {
  const counted = await select<{ id: number; n: number | string }>(
    store,
    'SELECT u.id, (SELECT COUNT(*) FROM snippets s WHERE s.owner_id = u.id) AS n FROM users u WHERE u.id > ? ORDER BY u.id LIMIT ?',
    [after, limit + 1],
  );
  const kept = rowsWithin(
    counted.map((u) => u.n),
    limit,
    PAGE_IDS,
  );
  if (!kept) return { items: [], more: false };
  const range = [counted[0]!.id, counted[kept - 1]!.id];
  const [users, owned] = await Promise.all([
    select<{ id: number; username: string }>(
      store,
      'SELECT id, username FROM users WHERE id BETWEEN ? AND ? ORDER BY id',
      range,
    ),
    select<{ id: number; owner_id: number }>(
      store,
      'SELECT id, owner_id FROM snippets WHERE owner_id BETWEEN ? AND ? ORDER BY owner_id, created, id',
      range,
    ),
  ]);
  const byOwner = new Map<number, number[]>();
  for (const s of owned) {
    const ids = byOwner.get(s.owner_id);
    if (ids) ids.push(s.id);
    else byOwner.set(s.owner_id, [s.id]);
  }
  return {
    items: users.map((u) => ({ id: u.id, username: u.username, snippets: byOwner.get(u.id) ?? [] })),
    more: counted.length > kept,
  };
}

export async function userById(store: Store, id: number): Promise<User | undefined> {
  const [user] = await select<{ id: number; username: string }>(store, 'SELECT id, username FROM users WHERE id = ?', [
    id,
  ]);
  if (!user) return undefined;
  const owned = await select<{ id: number }>(store, 'SELECT id FROM snippets WHERE owner_id = ? ORDER BY created, id', [
    id,
  ]);
  return { id: user.id, username: user.username, snippets: owned.map((s) => s.id) };
}

/** username -> id, so the pages can link an owner to its user record. */
export async function userIdsByUsername(store: Store, usernames: string[]): Promise<Map<string, number>> {
  const unique = [...new Set(usernames)];
  if (!unique.length) return new Map();
  const rows = await select<AuthUser>(
    store,
    `SELECT id, username FROM users WHERE username IN (${unique.map(() => '?').join(', ')})`,
    unique,
  );
  return new Map(rows.map((u) => [u.username, u.id]));
}

/**
 * Notes a session login at `at` (users.last_login, migration 0014): the password page's and OpenID Connect's, as
 * Django's update_last_login notes its user_logged_in signal; a script's Basic, Token or OAuth request does not.
 */
export async function noteLogin(store: Store, userId: number, at: Date): Promise<void> {
  await store.models.User.update({ last_login: at }, { where: { id: userId } });
}

/** A user as `snippets listusers` shows them: how they sign in, and when they last signed in to a session. */
export interface UserSignIns {
  username: string;
  active: boolean;
  /** A usable password: not Django's unusable "!…" that a user made by an OpenID Connect sign-in has (src/auth/identities.ts). */
  password: boolean;
  /** The OpenID Connect issuers of the user's identities, each once, in order. */
  issuers: string[];
  lastLogin: Date | null;
}

/** Every user, by username, with how they sign in. */
export async function usersWithSignIns(store: Store): Promise<UserSignIns[]> {
  const [users, identities] = await Promise.all([
    store.models.User.findAll({
      attributes: ['id', 'username', 'password', 'is_active', 'last_login'],
      order: [['username', 'ASC']],
    }),
    store.models.UserIdentity.findAll({ attributes: ['userId', 'issuer'], order: [['issuer', 'ASC']] }),
  ]);
  const issuers = new Map<number, Set<string>>();
  for (const i of identities) {
    const of = issuers.get(i.userId);
    if (of) of.add(i.issuer);
    else issuers.set(i.userId, new Set([i.issuer]));
  }
  return users.map((u) => ({
    username: u.username,
    active: Boolean(u.is_active),
    password: !u.password.startsWith('!'),
    issuers: [...(issuers.get(u.id) ?? [])],
    lastLogin: u.last_login ?? null,
  }));
}
