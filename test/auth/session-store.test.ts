// The express-session store in the database deletes expired sessions by itself.
import { expect } from 'chai';
import { DatabaseSessionStore } from '../../server/auth/session-store';
import { saveSession } from '../../src/store/sessions';
import { select } from '../../src/store/select';
import { resetDatabase } from '../support/db';

describe('DatabaseSessionStore', () => {
  beforeEach(resetDatabase);

  it('deletes expired sessions every prune interval, keeping live ones', async () => {
    await saveSession('expired', { data: '{}', expires: new Date(Date.now() - 1000) });
    await saveSession('live', { data: '{}', expires: new Date(Date.now() + 60_000) });
    const store = new DatabaseSessionStore(20);
    try {
      // Polled with a generous bound: this checks that pruning happens, not how fast.
      const deadline = Date.now() + 10_000;
      let rows: string[] = [];
      do {
        await new Promise((r) => setTimeout(r, 25));
        rows = (await select<{ sid: string }>('SELECT sid FROM sessions ORDER BY sid')).map((r) => r.sid);
      } while (rows.length > 1 && Date.now() < deadline);
      expect(rows).to.deep.equal(['live']);
    } finally {
      store.close();
    }
  });
});
