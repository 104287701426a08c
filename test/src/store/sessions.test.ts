// Session rows: expired ones are never read and are deleted.
import { expect } from 'chai';
import { deleteExpiredSessions, saveSession, sessionData } from '../../../src/store/sessions';
import { select } from '../../../src/store/select';
import { resetDatabase } from '../../support/db';
import { testStore } from '../../support/runtime';

const sids = async () =>
  (await select<{ sid: string }>(testStore(), 'SELECT sid FROM sessions ORDER BY sid')).map((r) => r.sid);

describe('session rows', () => {
  beforeEach(resetDatabase);

  it('an expired session reads as none', async () => {
    await saveSession(testStore(), 'old', { data: '{"a":1}', expires: new Date(Date.now() - 1000) });
    await saveSession(testStore(), 'new', { data: '{"b":2}', expires: new Date(Date.now() + 60_000) });
    expect(await sessionData(testStore(), 'old')).to.equal(undefined);
    expect((await sessionData(testStore(), 'new'))?.data).to.equal('{"b":2}');
  });

  it('deleteExpiredSessions(testStore()) deletes the expired rows and only those', async () => {
    await saveSession(testStore(), 'old1', { data: '{}', expires: new Date(Date.now() - 1000) });
    await saveSession(testStore(), 'old2', { data: '{}', expires: new Date(Date.now() - 60_000) });
    await saveSession(testStore(), 'new', { data: '{}', expires: new Date(Date.now() + 60_000) });
    expect(await deleteExpiredSessions(testStore())).to.equal(2);
    expect(await sids()).to.deep.equal(['new']);
  });
});
