// Login sessions' rows: read on the reader, written on the writer; expired rows are deleted in the background.
import { QueryTypes } from 'sequelize';
import type { AuthUser } from '../requester';
import type { Store } from './database';
import { lookup } from './select';
import { STORED_BYTES, userWithStoredBytes, type StoredBytesColumn } from './snippets/usage';

export interface SessionRow {
  data: string;
  expires: Date;
  /** The user the session acts as (its data's userId), stored beside the data; none for an anonymous session. */
  userId?: number;
}

/** A session's row as read: with the active user it acts as, read with it (null: none active), when the row names one. */
export interface SessionRead extends SessionRow {
  user?: AuthUser | null;
}

/**
 * The session's row, or undefined when there is none or it has expired, and the user it acts as in the same statement
 * (migration 0020), with their stored bytes (a create's early quota check): one turn on the readers for all. A row
 * stored without its user (the release before) has none.
 */
export async function sessionData(store: Store, sid: string): Promise<SessionRead | undefined> {
  const row = await lookup<
    { data: string; expires: string | Date; user_id: number | null; username: string | null } & StoredBytesColumn
  >(
    store,
    `SELECT s.data, s.expires, s.user_id, u.username, ${STORED_BYTES} FROM sessions s LEFT JOIN users u ON u.id = s.user_id AND u.is_active = 1 WHERE s.sid = ?`,
    [sid],
  );
  const expires = row && new Date(row.expires);
  if (!row || expires!.getTime() <= Date.now()) return undefined;
  if (row.user_id === null) return { data: row.data, expires: expires! };
  const userId = Number(row.user_id);
  return {
    data: row.data,
    expires: expires!,
    userId,
    user: row.username === null ? null : userWithStoredBytes(userId, row.username, row),
  };
}

export async function saveSession(store: Store, sid: string, row: SessionRow): Promise<void> {
  const sql = store.engine.upsert('sessions', 'sid', ['sid', 'data', 'expires', 'user_id']);
  await store.sequelize.query(sql, {
    replacements: [sid, row.data, row.expires, row.userId ?? null],
    type: QueryTypes.INSERT,
  });
}

export async function touchSession(store: Store, sid: string, expires: Date): Promise<void> {
  await store.sequelize.query('UPDATE sessions SET expires = ? WHERE sid = ?', {
    replacements: [expires, sid],
    type: QueryTypes.BULKUPDATE,
  });
}

export async function deleteSession(store: Store, sid: string): Promise<void> {
  await store.sequelize.query('DELETE FROM sessions WHERE sid = ?', {
    replacements: [sid],
    type: QueryTypes.BULKDELETE,
  });
}

/** Deletes the sessions expired before `now`; resolves to how many. */
export async function deleteExpiredSessions(store: Store, now = new Date()): Promise<number> {
  const deleted = await store.sequelize.query('DELETE FROM sessions WHERE expires < ?', {
    replacements: [now],
    type: QueryTypes.BULKDELETE,
  });
  return Number(deleted) || 0;
}
