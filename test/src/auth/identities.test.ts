// signInIdentity and linkIdentity without HTTP: the user an OpenID Connect identity signs in as, on the suite's database.
import { expect } from 'chai';
import { linkIdentity, signInIdentity } from '../../../src/auth/identities';
import { checkCredentials } from '../../../src/auth/users';
import { updateActive } from '../../../src/users/store';
import { makeUser, resetDatabase } from '../../support/db';
import { testRuntime, testStore } from '../../support/runtime';

const ISSUER = 'https://id.example.com';

describe('signInIdentity', () => {
  beforeEach(resetDatabase);

  it("makes the user on an identity's first sign-in, with no password that works, and finds it after", async () => {
    const first = await signInIdentity(testStore(), { issuer: ISSUER, subject: 's1', username: 'dana' });
    expect(first).to.have.property('user').that.include({ username: 'dana' });
    const again = await signInIdentity(testStore(), { issuer: ISSUER, subject: 's1', username: 'other' });
    expect(again).to.deep.equal(first);
    const [row] = await testStore().models.User.findAll({ raw: true });
    expect(row!.password).to.match(/^!/);
    for (const guess of ['', row!.password, 'dana'])
      expect(await checkCredentials(testRuntime(), 'dana', guess)).to.equal(null);
  });

  it('tells one issuer from another with the same subject', async () => {
    await signInIdentity(testStore(), { issuer: ISSUER, subject: 's1', username: 'dana' });
    const elsewhere = await signInIdentity(testStore(), {
      issuer: 'https://other.example.com',
      subject: 's1',
      username: 'dana',
    });
    expect(elsewhere).to.deep.equal({ refused: 'taken', username: 'dana' });
  });

  it('refuses a taken username, a username the rule refuses or none, and a deactivated user', async () => {
    await makeUser('alice');
    expect(await signInIdentity(testStore(), { issuer: ISSUER, subject: 's2', username: 'alice' })).to.deep.equal({
      refused: 'taken',
      username: 'alice',
    });
    for (const username of [undefined, '', 'has space', 'x'.repeat(151)])
      expect(await signInIdentity(testStore(), { issuer: ISSUER, subject: 's3', username })).to.deep.equal({
        refused: 'no-username',
      });
    await signInIdentity(testStore(), { issuer: ISSUER, subject: 's4', username: 'erin' });
    await updateActive(testStore(), 'erin', false);
    expect(await signInIdentity(testStore(), { issuer: ISSUER, subject: 's4', username: 'erin' })).to.deep.equal({
      refused: 'inactive',
    });
  });

  it('signs a linked identity in as the user it was linked to', async () => {
    const alice = await makeUser('alice');
    expect(await linkIdentity(testStore(), alice, ISSUER, 's5')).to.deep.equal({ linked: true });
    expect(await linkIdentity(testStore(), alice, ISSUER, 's5')).to.deep.equal({ already: true });
    expect(await linkIdentity(testStore(), await makeUser('bob'), ISSUER, 's5')).to.deep.equal({ linkedTo: 'alice' });
    expect(await signInIdentity(testStore(), { issuer: ISSUER, subject: 's5', username: 'zed' })).to.deep.equal({
      user: alice,
    });
  });
});
