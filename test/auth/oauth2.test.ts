// OAuth 2.0: the token endpoint (password and refresh_token grants) and Bearer authentication.
import { expect } from 'chai';
import { createClient } from '../../src/auth/oauth2';
import { select } from '../../src/store/select';
import { makeUser, resetDatabase } from '../support/db';
import { api, apiAt } from '../support/http';
import { testStore } from '../support/runtime';

const CLIENT = { client_id: 'test-client', client_secret: 'test-client-secret' };
const basicClient = (id = CLIENT.client_id, secret = CLIENT.client_secret) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

function passwordGrant(overrides: Record<string, string> = {}, config: Record<string, string> = {}) {
  return api(config)
    .post('/oauth2/access_token/')
    .type('form')
    .send({ grant_type: 'password', username: 'alice', password: 'alicepass', ...CLIENT, ...overrides });
}

describe('OAuth 2.0', () => {
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    await createClient(testStore(), 'test', CLIENT.client_id, CLIENT.client_secret);
  });

  describe('POST /oauth2/access_token/ with grant_type=password', () => {
    it('answers access_token, token_type Bearer, expires_in, refresh_token and scope, not cached', async () => {
      const res = await passwordGrant().expect(200);
      expect(res.body).to.have.all.keys('access_token', 'token_type', 'expires_in', 'refresh_token', 'scope');
      expect(res.body.token_type).to.equal('Bearer');
      expect(res.body.expires_in).to.equal(36000);
      expect(res.body.access_token).to.be.a('string').with.length.above(30);
      expect(res.body.refresh_token).to.be.a('string').and.not.equal(res.body.access_token);
      expect(res.headers['cache-control']).to.equal('no-store');
    });

    it('is served without the trailing slash too, and takes JSON bodies', async () => {
      await api()
        .post('/oauth2/access_token')
        .send({ grant_type: 'password', username: 'alice', password: 'alicepass', ...CLIENT })
        .expect(200);
    });

    it('takes the client credentials with Basic instead of the body', async () => {
      const res = await api()
        .post('/oauth2/access_token/')
        .set('Authorization', basicClient())
        .type('form')
        .send({ grant_type: 'password', username: 'alice', password: 'alicepass' })
        .expect(200);
      expect(res.body.token_type).to.equal('Bearer');
    });

    it('stores the tokens only as SHA-256 digests', async () => {
      const { access_token: access, refresh_token: refresh } = (await passwordGrant().expect(200)).body;
      const rows = await select<Record<string, unknown>>(testStore(), 'SELECT * FROM oauth_tokens', []);
      expect(rows).to.have.length(1);
      const stored = JSON.stringify(rows);
      expect(stored).not.to.include(access);
      expect(stored).not.to.include(refresh);
    });

    it('answers invalid_client 401 for a wrong or missing client secret in the body, as the reference does', async () => {
      for (const res of [
        await passwordGrant({ client_secret: 'wrong' }),
        await passwordGrant({ client_id: 'nobody' }),
        await api()
          .post('/oauth2/access_token/')
          .type('form')
          .send({ grant_type: 'password', username: 'alice', password: 'alicepass' }),
      ]) {
        expect(res.status).to.equal(401);
        expect(res.body).to.deep.equal({ error: 'invalid_client' });
        expect(res.headers['www-authenticate']).to.equal('Bearer error="invalid_client"');
      }
    });

    it('answers invalid_client 401 challenging Basic when the client sent wrong Basic credentials', async () => {
      const res = await api()
        .post('/oauth2/access_token/')
        .set('Authorization', basicClient(CLIENT.client_id, 'nope'))
        .type('form')
        .send({ grant_type: 'password' })
        .expect(401);
      expect(res.body).to.deep.equal({ error: 'invalid_client' });
      expect(res.headers['www-authenticate']).to.equal('Basic realm="oauth2"');
    });

    it('answers invalid_grant 400 for wrong user credentials', async () => {
      const res = await passwordGrant({ password: 'wrong' }).expect(400);
      expect(res.body.error).to.equal('invalid_grant');
    });

    it('answers unsupported_grant_type 400 for other grants', async () => {
      const res = await passwordGrant({ grant_type: 'client_credentials' }).expect(400);
      expect(res.body.error).to.equal('unsupported_grant_type');
    });

    it('answers 400 invalid_request, never 500, for missing fields and unreadable bodies', async () => {
      const missing = await passwordGrant({ username: '' });
      expect(missing.status).to.equal(400);
      expect(missing.body.error).to.equal('invalid_request');
      const noGrant = await api().post('/oauth2/access_token/').type('form').send(CLIENT);
      expect(noGrant.status).to.equal(400);
      for (const [type, body] of [
        ['application/json', '{"grant_type":'],
        ['application/json', '[1,2]'],
        ['application/x-www-form-urlencoded', 'grant_type=password&username=%E0%A4%A&password=x'],
        ['application/x-www-form-urlencoded', 'x'.repeat(20000)],
      ]) {
        const res = await api().post('/oauth2/access_token/').set('Content-Type', type!).send(body);
        expect(res.status, `${type} ${body!.slice(0, 30)}`).to.be.within(400, 499);
        expect(res.body.error, body).to.be.a('string');
      }
    });

    it('GET answers 405 with Allow', async () => {
      const res = await api().get('/oauth2/access_token/').expect(405);
      expect(res.headers.allow).to.equal('POST, OPTIONS');
    });

    it("OPTIONS answers 200 with Allow and the endpoint's metadata, with and without the slash", async () => {
      for (const path of ['/oauth2/access_token/', '/oauth2/access_token']) {
        const res = await api().options(path).expect(200);
        expect(res.headers.allow).to.equal('POST, OPTIONS');
        expect(res.body).to.include({ name: 'OAuth 2.0 token endpoint' });
      }
    });
  });

  describe('Authorization: Bearer', () => {
    it('with an issued access token, POST /snippets/ responds 201 owned by its user, no CSRF needed', async () => {
      const { access_token: access } = (await passwordGrant().expect(200)).body;
      const res = await api()
        .post('/snippets/')
        .set('Authorization', `Bearer ${access}`)
        .send({ code: 'by bearer' })
        .expect(201);
      expect(res.body.owner).to.equal('alice');
    });

    it('an unknown token stops GET and POST with 401 (unlike the reference, not anonymous)', async () => {
      for (const method of ['get', 'post'] as const) {
        const res = await api()
          [method]('/snippets/')
          .set('Authorization', 'Bearer not-a-token')
          .send({ code: 'x' })
          .expect(401);
        expect(res.body).to.deep.equal({ detail: 'Invalid or expired token.' });
        expect(res.headers['www-authenticate']).to.equal('Basic realm="api"');
      }
      const first = await api({ AUTH_SCHEMES: 'oauth2,basic' })
        .get('/snippets/')
        .set('Authorization', 'Bearer not-a-token')
        .expect(401);
      expect(first.headers['www-authenticate']).to.equal('Bearer realm="api"');
    });

    it('a token is refused 401 from the moment it expires, and accepted until then', async () => {
      const config = { ACCESS_TOKEN_EXPIRES_IN: '60' };
      // Issued and checked on clocks of the test's: the last millisecond before expiry, then the moment of it. A whole
      // second, which a DATETIME column without fractions keeps as it is.
      const issued = Math.floor(Date.now() / 1000) * 1000;
      const { access_token: access, expires_in: expiresIn } = (
        await apiAt(() => issued, config)
          .post('/oauth2/access_token/')
          .type('form')
          .send({ grant_type: 'password', username: 'alice', password: 'alicepass', ...CLIENT })
          .expect(200)
      ).body;
      expect(expiresIn).to.equal(60);
      const bearer = { Authorization: `Bearer ${access}` };
      await apiAt(() => issued + 59_999, config)
        .get('/users/')
        .set(bearer)
        .expect(200);
      const expired = await apiAt(() => issued + 60_000, config)
        .get('/users/')
        .set(bearer)
        .expect(401);
      expect(expired.body).to.deep.equal({ detail: 'Invalid or expired token.' });
      expect(expired.headers['www-authenticate']).to.equal('Basic realm="api"');
    });
  });

  describe('POST /oauth2/access_token/ with grant_type=refresh_token', () => {
    it('issues a new pair and revokes the old one', async () => {
      const old = (await passwordGrant().expect(200)).body;
      const res = await api()
        .post('/oauth2/access_token/')
        .type('form')
        .send({ grant_type: 'refresh_token', refresh_token: old.refresh_token, ...CLIENT })
        .expect(200);
      expect(res.body.access_token).not.to.equal(old.access_token);
      expect(res.body.refresh_token).not.to.equal(old.refresh_token);
      await api().get('/users/').set('Authorization', `Bearer ${old.access_token}`).expect(401);
      await api().get('/users/').set('Authorization', `Bearer ${res.body.access_token}`).expect(200);
      const again = await api()
        .post('/oauth2/access_token/')
        .type('form')
        .send({ grant_type: 'refresh_token', refresh_token: old.refresh_token, ...CLIENT })
        .expect(400);
      expect(again.body.error).to.equal('invalid_grant');
    });

    it("refuses another client's refresh token with invalid_grant", async () => {
      await createClient(testStore(), 'other', 'other-client', 'other-client-secret');
      const old = (await passwordGrant().expect(200)).body;
      const res = await api()
        .post('/oauth2/access_token/')
        .type('form')
        .send({
          grant_type: 'refresh_token',
          refresh_token: old.refresh_token,
          client_id: 'other-client',
          client_secret: 'other-client-secret',
        })
        .expect(400);
      expect(res.body.error).to.equal('invalid_grant');
    });
  });
});
