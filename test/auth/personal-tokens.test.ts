// Personal access tokens: made, listed and revoked by a signed-in user (REST, /trpc, the page), taken as `Token` and as
// `Bearer`, limited by their scopes, ended by their expiry (the injected clock) and by revocation, never made by a token.
import { expect } from 'chai';
import supertest from 'supertest';
import { SIGN_IN_ONLY } from '../../src/access';
import { sha256 } from '../../src/auth/digest';
import { tokenFor } from '../../src/auth/tokens';
import type { AuthUser } from '../../src/auth/users';
import { updateActive } from '../../src/users/store';
import { select } from '../../src/store/select';
import { makeUser, resetDatabase } from '../support/db';
import { api, apiAt, app, basic } from '../support/http';
import { suiteLogRecords } from '../support/log';
import { csrfFrom } from '../support/pages';
import { testStore } from '../support/runtime';

const DAY = 24 * 3600;
const KEY = /^snp_[A-Za-z0-9_-]{43}$/;
const LISTED_KEYS = ['id', 'name', 'scopes', 'created', 'expires', 'last_used'];

type Created = { id: number; key: string; expires: string; created: string; scopes: string[] };

async function createToken(
  body: Record<string, unknown>,
  client: supertest.Agent | ReturnType<typeof api> = api(),
  as = basic('alice'),
): Promise<Created> {
  const res = await client.post('/tokens/').set('Authorization', as).send(body);
  expect(res.status, res.text).to.equal(201);
  return res.body as Created;
}

const token = (key: string) => ({ Authorization: `Token ${key}` });

describe('personal access tokens', () => {
  let alice: AuthUser;
  beforeEach(async () => {
    await resetDatabase();
    alice = await makeUser('alice');
    await makeUser('bob');
  });

  describe('POST /tokens/', () => {
    it('with Basic answers 201 with the key, shown this once, and its expiry PERSONAL_TOKEN_EXPIRES_IN away', async () => {
      const res = await api()
        .post('/tokens/')
        .set('Authorization', basic('alice'))
        .send({ name: 'CI uploads', scopes: ['write'] })
        .expect(201);
      expect(Object.keys(res.body)).to.deep.equal([...LISTED_KEYS, 'key']);
      expect(res.body).to.include({ name: 'CI uploads', last_used: null });
      expect(res.body.scopes).to.deep.equal(['write']);
      expect(res.body.key).to.match(KEY);
      const lifetime = Date.parse(res.body.expires) - Date.parse(res.body.created);
      expect(lifetime).to.equal(90 * DAY * 1000);
    });

    it('stores only the digest of the key: no column of the row holds it', async () => {
      const { key, id } = await createToken({ name: 'dash', scopes: 'read' });
      const rows = await select<Record<string, unknown>>(testStore(), 'SELECT * FROM personal_tokens');
      expect(rows).to.have.length(1);
      expect(rows[0]!.key_digest).to.equal(sha256(key));
      expect(rows[0]!.id).to.equal(id);
      for (const value of Object.values(rows[0]!)) expect(String(value)).not.to.include(key.slice(4));
    });

    it('takes the scopes as one form field, and refuses an unknown scope, no scope and a lifetime past the maximum', async () => {
      const form = await api()
        .post('/tokens/')
        .set('Authorization', basic('alice'))
        .type('form')
        .send({ name: 'both', scopes: 'read write', expires_in: '3600' })
        .expect(201);
      expect(form.body.scopes).to.deep.equal(['read', 'write']);
      const post = (body: object, overrides: Record<string, string> = {}) =>
        api(overrides).post('/tokens/').set('Authorization', basic('alice')).send(body).expect(400);
      expect((await post({ name: 'x', scopes: ['admin'] })).body).to.deep.equal({
        scopes: ['"admin" is not a valid choice.'],
      });
      expect((await post({ name: 'x', scopes: [] })).body).to.deep.equal({ scopes: ['Choose at least one scope.'] });
      expect((await post({ scopes: ['read'] })).body).to.deep.equal({ name: ['This field is required.'] });
      const tooLong = await post(
        { name: 'x', scopes: ['read'], expires_in: 7201 },
        { PERSONAL_TOKEN_EXPIRES_IN: '3600', PERSONAL_TOKEN_EXPIRES_MAX: '7200' },
      );
      expect(tooLong.body).to.deep.equal({ expires_in: ['Ensure this value is less than or equal to 7200.'] });
    });

    it("anonymously answers 401 with the first scheme's challenge", async () => {
      const res = await api()
        .post('/tokens/')
        .send({ name: 'x', scopes: ['read'] })
        .expect(401);
      expect(res.headers['www-authenticate']).to.equal('Basic realm="api"');
    });
  });

  describe('made only by a password or a session, never by a token', () => {
    it('a personal token, whatever its scopes, is refused 403 with the reason on every token path', async () => {
      const { key, id } = await createToken({ name: 'rw', scopes: ['read', 'write'] });
      for (const auth of [`Token ${key}`, `Bearer ${key}`]) {
        const made = await api()
          .post('/tokens/')
          .set('Authorization', auth)
          .send({ name: 'x', scopes: ['read'] });
        expect(made.status).to.equal(403);
        expect(made.body).to.deep.equal({ detail: SIGN_IN_ONLY });
        expect(made.headers).not.to.have.property('www-authenticate');
        await api().get('/tokens/').set('Authorization', auth).expect(403);
        await api().delete(`/tokens/${id}/`).set('Authorization', auth).expect(403);
      }
      const readOnly = await createToken({ name: 'r', scopes: ['read'] });
      const res = await api()
        .post('/tokens/')
        .set(token(readOnly.key))
        .send({ name: 'x', scopes: ['read'] });
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal({ detail: SIGN_IN_ONLY });
    });

    it("the user's API token is refused too, at /trpc as on REST", async () => {
      const key = await tokenFor(testStore(), alice);
      const res = await api()
        .post('/trpc/tokens.create')
        .set('Authorization', `Token ${key}`)
        .send({ name: 'x', scopes: ['read'] })
        .expect(403);
      expect(res.body.error.message).to.equal(SIGN_IN_ONLY);
    });

    it('a session makes one with its CSRF token, and not without it', async () => {
      const agent = supertest.agent(app());
      const login = await agent.get('/api-auth/login/').expect(200);
      await agent
        .post('/api-auth/login/')
        .type('form')
        .send({ username: 'alice', password: 'alicepass', csrfmiddlewaretoken: csrfFrom(login.text) })
        .expect(302);
      const page = await agent.get('/tokens/').set('Accept', 'text/html').expect(200);
      expect(page.text).to.include('id="token-form"');
      expect(page.text).to.include('id="tokens-link"');
      await agent
        .post('/tokens/')
        .send({ name: 'no csrf', scopes: ['read'] })
        .expect(403);
      const made = await agent
        .post('/tokens/')
        .set('Accept', 'text/html')
        .type('form')
        .send({
          name: 'from the page',
          scopes: 'read',
          expires_in: String(7 * DAY),
          csrfmiddlewaretoken: csrfFrom(page.text),
        })
        .expect(201);
      const key = /id="new-token-key">([^<]+)</.exec(made.text)?.[1];
      expect(key).to.match(KEY);
      await api().get('/snippets/').set(token(key!)).expect(200);
      // The list page shows the token, with its revoke button, and never the key.
      const listed = await agent.get('/tokens/').set('Accept', 'text/html').expect(200);
      expect(listed.text).to.include('from the page');
      expect(listed.text).to.include('class="api-form revoke-form"');
      expect(listed.text).not.to.include(key!);
    });
  });

  describe('OPTIONS /tokens/', () => {
    it("describes the token's create fields to a signed-in user, not a snippet's", async () => {
      const res = await api().options('/tokens/').set('Authorization', basic('alice')).expect(200);
      expect(Object.keys(res.body.actions.POST)).to.deep.equal(['name', 'scopes', 'expires_in']);
      expect(res.body.actions.POST.scopes.choices).to.deep.equal([
        { value: 'read', display_name: 'read' },
        { value: 'write', display_name: 'write' },
      ]);
      expect((await api().options('/tokens/').expect(200)).body).not.to.have.property('actions');
    });
  });

  describe('GET /tokens/', () => {
    it("lists the user's own tokens, oldest first, never a key", async () => {
      const first = await createToken({ name: 'one', scopes: ['read'] });
      await createToken({ name: 'two', scopes: ['write'] });
      await createToken({ name: "bob's", scopes: ['read'] }, api(), basic('bob'));
      const res = await api().get('/tokens/').set('Authorization', basic('alice')).expect(200);
      expect(res.body.map((t: { name: string }) => t.name)).to.deep.equal(['one', 'two']);
      for (const t of res.body) expect(Object.keys(t)).to.deep.equal(LISTED_KEYS);
      expect(res.text).not.to.include(first.key);
    });
  });

  describe('as credentials', () => {
    it('a write token, as Token and as Bearer, creates a snippet owned by its user', async () => {
      const { key } = await createToken({ name: 'ci', scopes: ['write'] });
      const byToken = await api().post('/snippets/').set(token(key)).send({ code: 'a' }).expect(201);
      expect(byToken.body.owner).to.equal('alice');
      const byBearer = await api().post('/snippets/').set('Authorization', `Bearer ${key}`).send({ code: 'b' });
      expect(byBearer.status, byBearer.text).to.equal(201);
      expect(byBearer.body.owner).to.equal('alice');
    });

    it('a read token on every write (POST, PUT, DELETE, restore, /trpc) is 403 naming the missing scope, without WWW-Authenticate', async () => {
      const { key } = await createToken({ name: 'dash', scopes: ['read'] });
      const snippet = await api()
        .post('/snippets/')
        .set('Authorization', basic('alice'))
        .send({ code: 'x' })
        .expect(201);
      const id = snippet.body.id as number;
      const detail = 'This token does not have the "write" scope this request needs.';
      for (const req of [
        api().post('/snippets/').send({ code: 'y' }),
        api().put(`/snippets/${id}/`).send({ code: 'y' }),
        api().delete(`/snippets/${id}/`),
        api().post(`/snippets/${id}/revisions/1/restore/`),
      ]) {
        const res = await req.set(token(key));
        expect(res.status, res.text).to.equal(403);
        expect(res.body).to.deep.equal({ detail });
        expect(res.headers).not.to.have.property('www-authenticate');
      }
      const trpc = await api().post('/trpc/snippets.create').set('Authorization', `Bearer ${key}`).send({ code: 'y' });
      expect(trpc.status).to.equal(403);
      expect(trpc.body.error.message).to.equal(detail);
      // Reads are what it is for; the snippet is untouched.
      const read = await api().get(`/snippets/${id}/`).set(token(key)).expect(200);
      expect(read.body.code).to.equal('x');
    });

    it('expires by the clock: accepted until its expiry, then refused as a wrong token (401 with the challenge)', async () => {
      let now = Date.parse('2026-11-25T12:00:00Z');
      const at = () => apiAt(() => now);
      const created = await createToken({ name: 'short', scopes: ['read', 'write'], expires_in: 3600 }, at());
      expect(created.expires).to.equal('2026-11-25T13:00:00.000Z');
      now += 3599_000;
      await at().post('/snippets/').set(token(created.key)).send({ code: 'in time' }).expect(201);
      now += 1000;
      for (const auth of [`Token ${created.key}`, `Bearer ${created.key}`]) {
        const res = await at().get('/snippets/').set('Authorization', auth).expect(401);
        expect(res.headers['www-authenticate']).to.equal('Basic realm="api"');
      }
      const tokenFirst = await apiAt(() => now, { AUTH_SCHEMES: 'token,basic' })
        .get('/snippets/')
        .set(token(created.key))
        .expect(401);
      expect(tokenFirst.headers['www-authenticate']).to.equal('Token');
      expect(tokenFirst.body).to.deep.equal({ detail: 'Invalid token.' });
    });

    it('revoked: DELETE /tokens/<id>/ answers 204 and the key is refused at once, as a wrong one', async () => {
      const { key, id } = await createToken({ name: 'gone', scopes: ['read'] });
      await api().get('/snippets/').set(token(key)).expect(200);
      await api().delete(`/tokens/${id}/`).set('Authorization', basic('bob')).expect(404);
      await api().delete(`/tokens/${id}/`).set('Authorization', basic('alice')).expect(204);
      const res = await api({ AUTH_SCHEMES: 'token,basic,session' }).get('/snippets/').set(token(key)).expect(401);
      expect(res.headers['www-authenticate']).to.equal('Token');
      expect(res.body).to.deep.equal({ detail: 'Invalid token.' });
      await api().delete(`/tokens/${id}/`).set('Authorization', basic('alice')).expect(404);
      expect((await api().get('/tokens/').set('Authorization', basic('alice')).expect(200)).body).to.deep.equal([]);
    });

    it("a deactivated user's token is refused", async () => {
      const { key } = await createToken({ name: 'x', scopes: ['read'] });
      await updateActive(testStore(), 'alice', false);
      await api().get('/snippets/').set(token(key)).expect(401);
    });

    it('notes its last use, at most once a minute', async () => {
      let now = Date.parse('2026-11-25T12:00:00Z');
      const at = () => apiAt(() => now);
      const { key } = await createToken({ name: 'used', scopes: ['read'] }, at());
      const lastUsed = async () =>
        (await api().get('/tokens/').set('Authorization', basic('alice')).expect(200)).body[0].last_used;
      expect(await lastUsed()).to.equal(null);
      await at().get('/snippets/').set(token(key)).expect(200);
      expect(await lastUsed()).to.equal('2026-11-25T12:00:00.000Z');
      now += 30_000;
      await at().get('/snippets/').set(token(key)).expect(200);
      expect(await lastUsed()).to.equal('2026-11-25T12:00:00.000Z');
      now += 31_000;
      await at().get('/snippets/').set('Authorization', `Bearer ${key}`).expect(200);
      expect(await lastUsed()).to.equal('2026-11-25T12:01:01.000Z');
    });

    it('never reaches a log line, made, listed or used', async () => {
      const { key } = await createToken({ name: 'secret', scopes: ['read', 'write'] });
      await api().post('/snippets/').set(token(key)).send({ code: 'z' }).expect(201);
      await api().get('/snippets/').set('Authorization', `Bearer ${key}x`).expect(401);
      const text = JSON.stringify(suiteLogRecords());
      expect(text).to.include('/tokens/');
      expect(text).not.to.include(key.slice(4));
    });
  });
});
