// The express-session store in the database: sessions survive restarts and are shared by every process.
import { Store, type SessionData } from 'express-session';
import { deleteExpiredSessions, deleteSession, saveSession, sessionData, touchSession } from '../../src/store/sessions';

type Callback<T = void> = (err?: unknown, value?: T) => void;

const TWO_WEEKS_MS = 14 * 24 * 3600 * 1000;
/** How often a process deletes expired sessions (every process does, so a crashed one is covered by the others). */
export const PRUNE_INTERVAL_MS = 10 * 60 * 1000;

function expiry(session: SessionData): Date {
  return session.cookie?.expires ? new Date(session.cookie.expires) : new Date(Date.now() + TWO_WEEKS_MS);
}

export class DatabaseSessionStore extends Store {
  private readonly timer: NodeJS.Timeout;

  constructor(pruneIntervalMs = PRUNE_INTERVAL_MS) {
    super();
    // Expired rows are never read (sessionData checks the date) but would stay forever: the table would only grow.
    this.timer = setInterval(() => void this.prune().catch(() => {}), pruneIntervalMs).unref();
  }

  override get(sid: string, cb: Callback<SessionData | null>): void {
    sessionData(sid).then((data) => {
      if (data === undefined) return cb(undefined, null);
      try {
        cb(undefined, JSON.parse(data) as SessionData);
      } catch {
        cb(undefined, null); // a damaged row is no session, never an error page
      }
    }, cb);
  }

  override set(sid: string, session: SessionData, cb: Callback = () => {}): void {
    saveSession(sid, { data: JSON.stringify(session), expires: expiry(session) }).then(() => cb(), cb);
  }

  override destroy(sid: string, cb: Callback = () => {}): void {
    deleteSession(sid).then(() => cb(), cb);
  }

  override touch(sid: string, session: SessionData, cb: Callback = () => {}): void {
    touchSession(sid, expiry(session)).then(() => cb(), cb);
  }

  /** Deletes expired rows; resolves to how many. */
  prune(): Promise<number> {
    return deleteExpiredSessions();
  }

  close(): void {
    clearInterval(this.timer);
  }
}
