// checkCredentials and recentlyVerifiedUser: the password check, and a remembered pair ending when the password changes (speed is in the bench).
import { expect } from 'chai';
import { checkCredentials, createUser, recentlyVerifiedUser, setPassword } from '../../../src/auth/users';
import { resetDatabase } from '../../support/db';

describe('checkCredentials', () => {
  beforeEach(async () => {
    await resetDatabase();
    await createUser('erin', 'erinpass', { iterations: 200000 });
  });

  it('accepts the right password and refuses a wrong one or an unknown user', async () => {
    expect(await checkCredentials('erin', 'erinpass')).to.include({ username: 'erin' });
    expect(await checkCredentials('erin', 'wrong')).to.equal(null);
    expect(await checkCredentials('nobody', 'erinpass')).to.equal(null);
  });

  it('stops accepting a remembered old password as soon as it is changed', async () => {
    expect(await checkCredentials('erin', 'erinpass')).to.not.equal(null);
    expect(await checkCredentials('erin', 'erinpass')).to.not.equal(null);
    await setPassword('erin', 'newpass', 1000);
    expect(await checkCredentials('erin', 'erinpass')).to.equal(null);
    expect(await checkCredentials('erin', 'newpass')).to.include({ username: 'erin' });
  });

  it('recentlyVerifiedUser knows only a pair checked moments ago, and forgets it when the password changes', async () => {
    expect(await recentlyVerifiedUser('erin', 'erinpass')).to.equal(null);
    await checkCredentials('erin', 'erinpass');
    expect(await recentlyVerifiedUser('erin', 'erinpass')).to.include({ username: 'erin' });
    expect(await recentlyVerifiedUser('erin', 'wrong')).to.equal(null);
    expect(await recentlyVerifiedUser('Erin', 'erinpass')).to.equal(null);
    await setPassword('erin', 'newpass', 1000);
    expect(await recentlyVerifiedUser('erin', 'erinpass')).to.equal(null);
  });
});
