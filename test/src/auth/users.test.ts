// checkCredentials and recentlyVerifiedUser: the password check, and a remembered pair ending when the password changes (speed is in the bench).
import { expect } from 'chai';
import { checkCredentials, createUser, recentlyVerifiedUser, setPassword } from '../../../src/auth/users';
import { resetDatabase } from '../../support/db';
import { testRuntime, testStore } from '../../support/runtime';

describe('checkCredentials', () => {
  beforeEach(async () => {
    await resetDatabase();
    await createUser(testStore(), 'erin', 'erinpass', { iterations: 200000 });
  });

  it('accepts the right password and refuses a wrong one or an unknown user', async () => {
    expect(await checkCredentials(testRuntime(), 'erin', 'erinpass')).to.include({ username: 'erin' });
    expect(await checkCredentials(testRuntime(), 'erin', 'wrong')).to.equal(null);
    expect(await checkCredentials(testRuntime(), 'nobody', 'erinpass')).to.equal(null);
  });

  it('stops accepting a remembered old password as soon as it is changed', async () => {
    expect(await checkCredentials(testRuntime(), 'erin', 'erinpass')).to.not.equal(null);
    expect(await checkCredentials(testRuntime(), 'erin', 'erinpass')).to.not.equal(null);
    await setPassword(testStore(), 'erin', 'newpass', 1000);
    expect(await checkCredentials(testRuntime(), 'erin', 'erinpass')).to.equal(null);
    expect(await checkCredentials(testRuntime(), 'erin', 'newpass')).to.include({ username: 'erin' });
  });

  it('recentlyVerifiedUser knows only a pair checked moments ago, and forgets it when the password changes', async () => {
    expect(await recentlyVerifiedUser(testRuntime(), 'erin', 'erinpass')).to.equal(null);
    await checkCredentials(testRuntime(), 'erin', 'erinpass');
    expect(await recentlyVerifiedUser(testRuntime(), 'erin', 'erinpass')).to.include({ username: 'erin' });
    expect(await recentlyVerifiedUser(testRuntime(), 'erin', 'wrong')).to.equal(null);
    expect(await recentlyVerifiedUser(testRuntime(), 'Erin', 'erinpass')).to.equal(null);
    await setPassword(testStore(), 'erin', 'newpass', 1000);
    expect(await recentlyVerifiedUser(testRuntime(), 'erin', 'erinpass')).to.equal(null);
  });
});
