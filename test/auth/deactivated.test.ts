// A deactivated user keeps their credentials but authenticates by no scheme (src/migrations/0004-user-active.ts;
// `snippets deactivateuser`), and the same credentials work again once the user is activated.
import { expect } from 'chai';
import { createClient } from '../../src/auth/oauth2';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic } from '../support/http';
import { testStore } from '../support/runtime';

const CLIENT = { client_id: 'deactivated-client', client_secret: 'deactivated-client-secret' };

/** What `snippets deactivateuser` / `activateuser` write, set on the row directly. */
async function setActive(username: string, active: boolean): Promise<void> {
  await testStore().sequelize.query('UPDATE users SET is_active = ? WHERE username = ?', {
    replacements: [active ? 1 : 0, username],
  });
}

describe('a deactivated user', () => {
  /** Alice's Authorization header for each scheme, obtained while she is active. */
  let headers: Record<string, string>;

  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    await createClient(testStore(), 'test', CLIENT.client_id, CLIENT.client_secret);
    const token = (await api().post('/api-token-auth/').send({ username: 'alice', password: 'alicepass' }).expect(200))
      .body.token as string;
    const bearer = (
      await api()
        .post('/oauth2/access_token/')
        .type('form')
        .send({ grant_type: 'password', username: 'alice', password: 'alicepass', ...CLIENT })
        .expect(200)
    ).body.access_token as string;
    headers = { Basic: basic('alice'), Token: `Token ${token}`, Bearer: `Bearer ${bearer}` };
  });

  for (const scheme of ['Basic', 'Token', 'Bearer']) {
    it(`is refused 401 with ${scheme} credentials that worked before, and accepted again once activated`, async () => {
      const create = () => api().post('/snippets/').set('Authorization', headers[scheme]!).send({ code: scheme });
      expect((await create().expect(201)).body.owner).to.equal('alice');
      await setActive('alice', false);
      const refused = await create().expect(401);
      expect(refused.headers['www-authenticate']).to.be.a('string');
      await setActive('alice', true);
      await create().expect(201);
      expect((await api().get('/snippets/').expect(200)).body).to.have.length(2);
    });
  }
});
