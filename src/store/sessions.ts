// Login sessions' rows: read on the reader, written on the writer; expired rows are deleted in the background.
import { QueryTypes } from 'sequelize';
import type { Store } from './database';
import { lookup } from './select';

export interface SessionRow {
  data: string;
  expires: Date;
}

/** The session's row, or undefined when there is none or it has expired. */
export async function sessionData(store: Store, sid: string): Promise<SessionRow | undefined> {
  const row = await lookup<{ data: string; expires: string | Date }>(
    store,
    'SELECT data, expires FROM sessions WHERE sid = ?',
    [sid],
  );
  const expires = row && new Date(row.expires);
  return row && expires!.getTime() > Date.now() ? { data: row.data, expires: expires! } : undefined;
}

export async function saveSession(store: Store, sid: string, row: SessionRow): Promise<void> {
  const sql = store.engine.upsert('sessions', 'sid', ['sid', 'data', 'expires']);
  await store.sequelize.query(sql, { replacements: [sid, row.data, row.expires], type: QueryTypes.INSERT });
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
