// The express-session store in the database deletes expired sessions by itself.
import { expect } from 'chai';
import type { SessionData } from 'express-session';
import { DatabaseSessionStore, TOUCH_EVERY_MS } from '../../server/auth/session-store';
import { saveSession } from '../../src/store/sessions';
import { select } from '../../src/store/select';
import { makeUser, resetDatabase } from '../support/db';
import { testStore } from '../support/runtime';

describe('DatabaseSessionStore', () => {
  beforeEach(resetDatabase);

  it('deletes expired sessions every prune interval, keeping live ones', async () => {
    await saveSession(testStore(), 'expired', { data: '{}', expires: new Date(Date.now() - 1000) });
    await saveSession(testStore(), 'live', { data: '{}', expires: new Date(Date.now() + 60_000) });
    const store = new DatabaseSessionStore(testStore(), 20);
    try {
      // Polled with a generous bound: this checks that pruning happens, not how fast.
      const deadline = Date.now() + 120_000;
      let rows: string[] = [];
      do {
        await new Promise((r) => setTimeout(r, 25));
        rows = (await select<{ sid: string }>(testStore(), 'SELECT sid FROM sessions ORDER BY sid')).map((r) => r.sid);
      } while (rows.length > 1 && Date.now() < deadline);
      expect(rows).to.deep.equal(['live']);
    } finally {
      store.close();
    }
  });

  it('touch() writes a new expiry only once it has moved an hour or more from the stored one', async () => {
    const store = new DatabaseSessionStore(testStore());
    const at = (ms: number) =>
      ({ cookie: { expires: new Date(ms), originalMaxAge: 60_000 } }) as unknown as SessionData;
    const stored = async () =>
      new Date(
        (await select<{ expires: string | Date }>(testStore(), "SELECT expires FROM sessions WHERE sid = 's'"))[0]!
          .expires,
      ).getTime();
    const call = (fn: (cb: (err?: unknown) => void) => void) =>
      new Promise<void>((resolve, reject) => fn((err) => (err ? reject(err) : resolve())));
    try {
      const t0 = Math.floor(Date.now() / 1000) * 1000 + 3_600_000;
      await call((cb) => store.set('s', at(t0), cb));
      await call((cb) => store.touch('s', at(t0 + 60_000), cb));
      expect(await stored()).to.equal(t0);
      await call((cb) => store.touch('s', at(t0 + TOUCH_EVERY_MS), cb));
      expect(await stored()).to.equal(t0 + TOUCH_EVERY_MS);
    } finally {
      store.close();
    }
  });

  it('reads a session with the user it acts as, and never stores that user with the data', async () => {
    const { id } = await makeUser('u');
    const store = new DatabaseSessionStore(testStore());
    const call = <T>(fn: (cb: (err?: unknown, value?: T) => void) => void) =>
      new Promise<T | undefined>((resolve, reject) =>
        fn((err, value) => (err ? reject(err as Error) : resolve(value))),
      );
    try {
      const expires = new Date(Date.now() + 60_000);
      const data = { cookie: { expires, originalMaxAge: 60_000 }, userId: Number(id) } as unknown as SessionData;
      await call((cb) => store.set('s', data, cb));
      const read = await call<SessionData | null>((cb) => store.get('s', cb));
      expect(read!.user).to.deep.equal({ id: Number(id), username: 'u', storedBytes: 0 });
      await call((cb) => store.set('s', read!, cb));
      const [row] = await select<{ data: string }>(testStore(), "SELECT data FROM sessions WHERE sid = 's'");
      expect(JSON.parse(row!.data)).to.not.have.property('user');
    } finally {
      store.close();
    }
  });
});
