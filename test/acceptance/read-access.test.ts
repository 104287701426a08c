// READ_ACCESS=authenticated, a private deployment: every read needs a requester (REST, /trpc, pages, raw, highlight,
// the users, search), a browser is sent to the login page and back; the probes and the API reference stay open.
import { expect } from 'chai';
import supertest from 'supertest';
import { makeUser, resetDatabase } from '../support/db';
import { api, app, basic } from '../support/http';
import { csrfFrom } from '../support/pages';

const PRIVATE = { READ_ACCESS: 'authenticated' };

describe('READ_ACCESS=authenticated', () => {
  let id: number;
  let userId: number;
  beforeEach(async () => {
    await resetDatabase();
    userId = (await makeUser('alice')).id;
    id = (await api().post('/snippets/').set('Authorization', basic('alice')).send({ code: 'print(1)' }).expect(201))
      .body.id;
  });

  const reads = () => [
    '/',
    '/snippets/',
    '/snippets/?search=print',
    `/snippets/${id}/`,
    `/snippets/${id}/raw/`,
    `/snippets/${id}/highlight/`,
    `/snippets/${id}/embed/`,
    `/snippets/${id}/revisions/`,
    `/snippets/${id}/revisions/1/`,
    `/snippets/${id}/revisions/1/diff/`,
    '/users/',
    `/users/${userId}/`,
    `/trpc/snippets.list`,
    `/trpc/snippets.get?input=${encodeURIComponent(JSON.stringify({ id }))}`,
    `/trpc/snippets.revisions?input=${encodeURIComponent(JSON.stringify({ id }))}`,
    `/trpc/users.get?input=${encodeURIComponent(JSON.stringify({ id: userId }))}`,
  ];

  it('refuses every anonymous read 401 with the challenge, as the contract refuses an anonymous write', async () => {
    for (const path of reads()) {
      const res = await api(PRIVATE).get(path);
      expect(res.status, path).to.equal(401);
      expect(res.headers['www-authenticate'], path).to.equal('Basic realm="api"');
      expect(res.text, path).not.to.include('print(1)');
    }
  });

  it('answers every read of an authenticated requester: Basic, or a token with the read scope', async () => {
    const key = (
      await api()
        .post('/tokens/')
        .set('Authorization', basic('alice'))
        .send({ name: 'r', scopes: ['read'] })
        .expect(201)
    ).body.key as string;
    for (const path of reads()) {
      for (const auth of [basic('alice'), `Token ${key}`]) {
        const res = await api(PRIVATE).get(path).set('Authorization', auth);
        expect(res.status, `${path} ${auth.split(' ')[0]}`).to.equal(200);
      }
    }
  });

  it('refuses a write-only token a read, 403 naming the read scope', async () => {
    const key = (
      await api()
        .post('/tokens/')
        .set('Authorization', basic('alice'))
        .send({ name: 'w', scopes: ['write'] })
        .expect(201)
    ).body.key as string;
    const res = await api(PRIVATE).get('/snippets/').set('Authorization', `Token ${key}`).expect(403);
    expect(res.body).to.deep.equal({ detail: 'This token does not have the "read" scope this request needs.' });
    await api(PRIVATE).post('/snippets/').set('Authorization', `Token ${key}`).send({ code: 'ci' }).expect(201);
  });

  it('leaves /healthz, /readyz, /openapi.json, /docs and the login page open', async () => {
    for (const path of ['/healthz', '/readyz', '/openapi.json', '/docs', '/api-auth/login/']) {
      const res = await api(PRIVATE).get(path).set('Accept', 'text/html');
      expect(res.status, path).to.equal(200);
    }
  });

  it('sends a browser to the login page and, signed in, back where it was going', async () => {
    const agent = supertest.agent(app(PRIVATE));
    for (const path of ['/', '/snippets/', `/snippets/${id}/raw/`, `/users/${userId}/`]) {
      const res = await agent.get(path).set('Accept', 'text/html').expect(302);
      expect(res.headers.location, path).to.equal(`/api-auth/login/?next=${encodeURIComponent(path)}`);
    }
    const next = `/snippets/${id}/`;
    const login = await agent.get(`/api-auth/login/?next=${encodeURIComponent(next)}`).expect(200);
    const back = await agent
      .post('/api-auth/login/')
      .type('form')
      .send({ username: 'alice', password: 'alicepass', next, csrfmiddlewaretoken: csrfFrom(login.text) })
      .expect(302);
    expect(back.headers.location).to.equal(next);
    const page = await agent.get(next).set('Accept', 'text/html').expect(200);
    expect(page.text).to.include('print(1)');
  });

  it('by default (READ_ACCESS=anyone) leaves every read open, as the contract says', async () => {
    for (const path of reads()) expect((await api().get(path)).status, path).to.equal(200);
  });
});
