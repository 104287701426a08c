// Token authentication (`Authorization: Token <key>`) and the token endpoint POST /api-token-auth/.
import { expect } from 'chai';
import { tokenFor } from '../../src/auth/tokens';
import type { AuthUser } from '../../src/auth/users';
import { makeUser, resetDatabase } from '../support/db';
import { api } from '../support/http';
import { testStore } from '../support/runtime';

const BAD_CREDENTIALS = { non_field_errors: ['Unable to log in with provided credentials.'] };

describe('token authentication', () => {
  let alice: AuthUser;
  beforeEach(async () => {
    await resetDatabase();
    alice = await makeUser('alice');
  });

  describe('POST /api-token-auth/', () => {
    it('with JSON credentials answers {"token": key}, the same key every time', async () => {
      const first = await api().post('/api-token-auth/').send({ username: 'alice', password: 'alicepass' }).expect(200);
      expect(first.headers['content-type']).to.match(/^application\/json/);
      expect(Object.keys(first.body)).to.deep.equal(['token']);
      expect(first.body.token).to.match(/^[0-9a-f]{40}$/);
      const second = await api()
        .post('/api-token-auth/')
        .send({ username: 'alice', password: 'alicepass' })
        .expect(200);
      expect(second.body.token).to.equal(first.body.token);
    });

    it('with form credentials answers JSON even when the client asks for HTML', async () => {
      const res = await api()
        .post('/api-token-auth/')
        .type('form')
        .set('Accept', 'text/html')
        .send({ username: 'alice', password: 'alicepass' })
        .expect(200);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      // The key of the user who sent the credentials, and no other user's.
      expect(res.body.token).to.equal(await tokenFor(testStore(), alice));
      expect(res.body.token).not.to.equal(await tokenFor(testStore(), await makeUser('carol')));
    });

    it('with a wrong password or an unknown user answers 400 non_field_errors', async () => {
      for (const body of [
        { username: 'alice', password: 'wrong' },
        { username: 'nobody', password: 'alicepass' },
      ]) {
        const res = await api().post('/api-token-auth/').send(body).expect(400);
        expect(res.body).to.deep.equal(BAD_CREDENTIALS);
      }
    });

    it('without username or password answers 400 with each missing field', async () => {
      const res = await api().post('/api-token-auth/').send({}).expect(400);
      expect(res.body).to.deep.equal({ username: ['This field is required.'], password: ['This field is required.'] });
      const blank = await api().post('/api-token-auth/').type('form').send({ username: '', password: 'x' }).expect(400);
      expect(blank.body).to.deep.equal({ username: ['This field may not be blank.'] });
    });

    it('with malformed JSON answers 400 with detail, never 500', async () => {
      const res = await api()
        .post('/api-token-auth/')
        .set('Content-Type', 'application/json')
        .send('{"username":')
        .expect(400);
      expect(res.body.detail).to.be.a('string');
    });

    it('GET answers 405 with Allow', async () => {
      const res = await api().get('/api-token-auth/').expect(405);
      expect(res.headers.allow).to.equal('POST, OPTIONS');
      expect(res.body).to.deep.equal({ detail: 'Method "GET" not allowed.' });
    });

    it('follows TOKEN_AUTH_PATH', async () => {
      await api({ TOKEN_AUTH_PATH: 'auth/token/' })
        .post('/auth/token/')
        .send({ username: 'alice', password: 'alicepass' })
        .expect(200);
      await api({ TOKEN_AUTH_PATH: 'auth/token/' })
        .post('/api-token-auth/')
        .send({ username: 'alice', password: 'alicepass' })
        .expect(404);
    });
  });

  describe('requests with Authorization: Token', () => {
    async function aliceToken(): Promise<string> {
      return (await api().post('/api-token-auth/').send({ username: 'alice', password: 'alicepass' }).expect(200)).body
        .token;
    }

    it('POST /snippets/ with the key responds 201 owned by its user, with no CSRF token needed', async () => {
      const key = await aliceToken();
      const res = await api()
        .post('/snippets/')
        .set('Authorization', `Token ${key}`)
        .send({ code: 'by token' })
        .expect(201);
      expect(res.body.owner).to.equal('alice');
    });

    it('a wrong key stops GET and POST: 401 "Invalid token." with the first scheme\'s challenge, nothing stored', async () => {
      for (const method of ['get', 'post'] as const) {
        const res = await api()
          [method]('/snippets/')
          .set('Authorization', `Token ${'0'.repeat(40)}`)
          .send({ code: 'x' })
          .expect(401);
        expect(res.body).to.deep.equal({ detail: 'Invalid token.' });
        expect(res.headers['www-authenticate']).to.equal('Basic realm="api"');
      }
      expect((await api().get('/snippets/').expect(200)).body).to.deep.equal([]);
    });

    it('with Token first in AUTH_SCHEMES, a wrong key is challenged with "Token"', async () => {
      const res = await api({ AUTH_SCHEMES: 'token,basic' })
        .get('/snippets/')
        .set('Authorization', 'Token nope')
        .expect(401);
      expect(res.headers['www-authenticate']).to.equal('Token');
    });

    it("a header without the key, or with spaces in it, answers DRF's messages", async () => {
      expect((await api().get('/users/').set('Authorization', 'Token').expect(401)).body.detail).to.equal(
        'Invalid token header. No credentials provided.',
      );
      expect((await api().get('/users/').set('Authorization', 'Token a b').expect(401)).body.detail).to.equal(
        'Invalid token header. Token string should not contain spaces.',
      );
    });
  });
});
