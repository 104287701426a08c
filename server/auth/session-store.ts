// The express-session store in the database: sessions survive restarts and are shared by every process.
import { Store, type SessionData } from 'express-session';
import type { Runtime } from '../../src/runtime';
import type { Store as Database } from '../../src/store/database';
import { LRUCache } from 'lru-cache';
import { deleteExpiredSessions, deleteSession, saveSession, sessionData, touchSession } from '../../src/store/sessions';

type Callback<T = void> = (err?: unknown, value?: T) => void;

const TWO_WEEKS_MS = 14 * 24 * 3600 * 1000;
/** How often a process deletes expired sessions (every process does, so a crashed one is covered by the others). */
const PRUNE_INTERVAL_MS = 10 * 60 * 1000;
/**
 * express-session slides a session's expiry on every request and asks the store to touch it: a write per read. The
 * new expiry is written only once it has moved this far from the one stored, so a session read costs no write.
 */
export const TOUCH_EVERY_MS = 60 * 60 * 1000;

function expiry(session: SessionData): Date {
  return session.cookie?.expires ? new Date(session.cookie.expires) : new Date(Date.now() + TWO_WEEKS_MS);
}

export class DatabaseSessionStore extends Store {
  private readonly timer: NodeJS.Timeout;
  /**
   * The expiry stored for a session, as this process last read or wrote it; made on first use: lru-cache allocates
   * storage for `max` items at creation (its README, "max"), 16 ms of CPU for these 100,000, which an app that never
   * sees a session pays for nothing (2026-11-26: 16 of the 17.5 ms of createApp(); the tests build an app per test).
   */
  private expiries: LRUCache<string, number> | undefined;
  private get storedExpiry(): LRUCache<string, number> {
    return (this.expiries ??= new LRUCache<string, number>({ max: 100_000 }));
  }

  constructor(
    private readonly db: Database,
    pruneIntervalMs = PRUNE_INTERVAL_MS,
  ) {
    super();
    // Expired rows are never read (sessionData checks the date) but would stay forever: the table would only grow.
    this.timer = setInterval(() => void this.prune().catch(() => {}), pruneIntervalMs).unref();
  }

  override get(sid: string, cb: Callback<SessionData | null>): void {
    sessionData(this.db, sid).then((row) => {
      if (row === undefined) return cb(undefined, null);
      this.storedExpiry.set(sid, row.expires.getTime());
      let session: SessionData;
      try {
        session = JSON.parse(row.data) as SessionData;
      } catch {
        return cb(undefined, null); // a damaged row is no session, never an error page
      }
      if (row.user !== undefined && row.userId === session.userId) session.user = row.user;
      cb(undefined, session);
    }, cb);
  }

  override set(sid: string, session: SessionData, cb: Callback = () => {}): void {
    const expires = expiry(session);
    // The user read with the session is never stored with it: it is read afresh each time (get).
    const { user: _read, ...data } = session;
    saveSession(this.db, sid, { data: JSON.stringify(data), expires, userId: session.userId }).then(
      () => (this.storedExpiry.set(sid, expires.getTime()), cb()),
      cb,
    );
  }

  override destroy(sid: string, cb: Callback = () => {}): void {
    this.storedExpiry.delete(sid);
    deleteSession(this.db, sid).then(() => cb(), cb);
  }

  override touch(sid: string, session: SessionData, cb: Callback = () => {}): void {
    const expires = expiry(session);
    const stored = this.storedExpiry.get(sid);
    if (stored !== undefined && Math.abs(expires.getTime() - stored) < TOUCH_EVERY_MS) return cb();
    touchSession(this.db, sid, expires).then(() => (this.storedExpiry.set(sid, expires.getTime()), cb()), cb);
  }

  /** Deletes expired rows; resolves to how many. */
  prune(): Promise<number> {
    return deleteExpiredSessions(this.db);
  }

  close(): void {
    clearInterval(this.timer);
  }
}

/** The runtime's database session store, closed (its pruning timer stopped) with the runtime. */
export function sessionStore(runtime: Pick<Runtime, 'store' | 'onClose'>): DatabaseSessionStore {
  const store = new DatabaseSessionStore(runtime.store);
  runtime.onClose(() => store.close());
  return store;
}
