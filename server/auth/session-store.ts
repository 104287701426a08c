// The express-session store in the database: sessions survive restarts and are shared by every process.
import { Store, type SessionData } from 'express-session';
import { QueryTypes } from 'sequelize';
import { database } from '../../src/db';
import { select } from '../../src/reads';

type Callback<T = void> = (err?: unknown, value?: T) => void;

const TWO_WEEKS_MS = 14 * 24 * 3600 * 1000;

function expiry(session: SessionData): Date {
  return session.cookie?.expires ? new Date(session.cookie.expires) : new Date(Date.now() + TWO_WEEKS_MS);
}

export class DatabaseSessionStore extends Store {
  override get(sid: string, cb: Callback<SessionData | null>): void {
    select<{ data: string; expires: string | Date }>('SELECT data, expires FROM sessions WHERE sid = ?', [sid]).then((rows) => {
      const row = rows[0];
      if (!row || new Date(row.expires).getTime() <= Date.now()) return cb(undefined, null);
      try {
        cb(undefined, JSON.parse(row.data) as SessionData);
      } catch {
        cb(undefined, null); // a damaged row is no session, never an error page
      }
    }, cb);
  }

  override set(sid: string, session: SessionData, cb: Callback = () => {}): void {
    const db = database();
    const values = [sid, JSON.stringify(session), expiry(session)];
    const sql =
      db.getDialect() === 'sqlite'
        ? 'INSERT INTO sessions (sid, data, expires) VALUES (?, ?, ?) ON CONFLICT(sid) DO UPDATE SET data = excluded.data, expires = excluded.expires'
        : 'INSERT INTO sessions (sid, data, expires) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE data = VALUES(data), expires = VALUES(expires)';
    db.query(sql, { replacements: values, type: QueryTypes.INSERT }).then(() => cb(), cb);
  }

  override destroy(sid: string, cb: Callback = () => {}): void {
    database().query('DELETE FROM sessions WHERE sid = ?', { replacements: [sid], type: QueryTypes.BULKDELETE }).then(() => cb(), cb);
  }

  override touch(sid: string, session: SessionData, cb: Callback = () => {}): void {
    database().query('UPDATE sessions SET expires = ? WHERE sid = ?', { replacements: [expiry(session), sid], type: QueryTypes.BULKUPDATE }).then(() => cb(), cb);
  }

  /** Expired rows are dropped now and then, not on every request. */
  prune(): Promise<unknown> {
    return database().query('DELETE FROM sessions WHERE expires < ?', { replacements: [new Date()], type: QueryTypes.BULKDELETE });
  }
}
