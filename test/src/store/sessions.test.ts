// Session rows: expired ones are never read and are deleted.
import { expect } from 'chai';
import { deleteExpiredSessions, saveSession, sessionData } from '../../../src/store/sessions';
import { select } from '../../../src/store/select';
import { resetDatabase } from '../../support/db';

const sids = async () => (await select<{ sid: string }>('SELECT sid FROM sessions ORDER BY sid')).map((r) => r.sid);

describe('session rows', () => {
  beforeEach(resetDatabase);

  it('an expired session reads as none', async () => {
    await saveSession('old', { data: '{"a":1}', expires: new Date(Date.now() - 1000) });
    await saveSession('new', { data: '{"b":2}', expires: new Date(Date.now() + 60_000) });
    expect(await sessionData('old')).to.equal(undefined);
    expect((await sessionData('new'))?.data).to.equal('{"b":2}');
  });

  it('deleteExpiredSessions() deletes the expired rows and only those', async () => {
    await saveSession('old1', { data: '{}', expires: new Date(Date.now() - 1000) });
    await saveSession('old2', { data: '{}', expires: new Date(Date.now() - 60_000) });
    await saveSession('new', { data: '{}', expires: new Date(Date.now() + 60_000) });
    expect(await deleteExpiredSessions()).to.equal(2);
    expect(await sids()).to.deep.equal(['new']);
  });
});
