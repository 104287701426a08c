// /trpc: the procedures for TypeScript clients, under the same authentication chain, booleans not coerced.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic } from '../support/http';

describe('/trpc', () => {
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  it('POST /trpc/snippets.create with Basic creates a snippet', async () => {
    const res = await api()
      .post('/trpc/snippets.create')
      .set('Authorization', basic('alice'))
      .send({ code: 'x', linenos: true })
      .expect(200);
    expect(res.body.result.data).to.include({ owner: 'alice', code: 'x', linenos: true });
  });

  it('keeps linenos "false" false after the REST adapter has run (no truthiness coercion)', async () => {
    await api()
      .post('/snippets/')
      .set('Authorization', basic('alice'))
      .send({ code: 'x', linenos: 'false' })
      .expect(201);
    const res = await api()
      .post('/trpc/snippets.create')
      .set('Authorization', basic('alice'))
      .send({ code: 'x', linenos: 'false' })
      .expect(200);
    expect(res.body.result.data.linenos).to.equal(false);
  });

  for (const method of ['put', 'delete', 'patch', 'trace'] as const) {
    it(`${method.toUpperCase()} /trpc/snippets.list is 405 with Allow and a JSON detail, never 500`, async () => {
      const res = await api()[method]('/trpc/snippets.list');
      expect(res.status).to.equal(405);
      expect(res.headers.allow).to.equal('GET, POST');
      expect(res.body).to.deep.equal({ detail: `Method "${method.toUpperCase()}" not allowed.` });
    });
  }

  it('an error answer carries no stack trace', async () => {
    const res = await api().get('/trpc/snippets.get?input=%7B%22id%22%3A999999%7D').expect(404);
    expect(JSON.stringify(res.body)).not.to.include('stack');
  });

  it('POST /trpc/snippets.create anonymous is 401 UNAUTHORIZED', async () => {
    const res = await api().post('/trpc/snippets.create').send({ code: 'x' }).expect(401);
    expect(res.body.error.data.code).to.equal('UNAUTHORIZED');
  });

  it('GET /trpc/snippets.list answers a page: the snippets as items, no next without a limit', async () => {
    await api().post('/trpc/snippets.create').set('Authorization', basic('alice')).send({ code: 'x' }).expect(200);
    const res = await api().get('/trpc/snippets.list').expect(200);
    expect(res.body.result.data.items).to.have.length(1);
    expect(res.body.result.data).not.to.have.property('next');
  });

  it('GET /trpc/snippets.list with a limit answers the cursor of the next page', async () => {
    for (const code of ['a', 'b'])
      await api().post('/trpc/snippets.create').set('Authorization', basic('alice')).send({ code }).expect(200);
    const first = (
      await api()
        .get(`/trpc/snippets.list?input=${encodeURIComponent('{"limit":1}')}`)
        .expect(200)
    ).body.result.data;
    expect(first.items.map((s: { code: string }) => s.code)).to.deep.equal(['a']);
    const second = (
      await api()
        .get(`/trpc/snippets.list?input=${encodeURIComponent(JSON.stringify({ limit: 1, cursor: first.next }))}`)
        .expect(200)
    ).body.result.data;
    expect(second.items.map((s: { code: string }) => s.code)).to.deep.equal(['b']);
  });

  it("POST /trpc/snippets.create without credentials is 401 with the first scheme's challenge", async () => {
    const res = await api().post('/trpc/snippets.create').send({ code: 'x' }).expect(401);
    expect(res.headers['www-authenticate']).to.equal('Basic realm="api"');
    expect(res.body.error.data).to.include({ code: 'UNAUTHORIZED', httpStatus: 401 });
  });

  it('POST /trpc/snippets.create without credentials is 403 without a challenge when the first scheme has none, and its body says so', async () => {
    const res = await api({ AUTH_SCHEMES: 'session,basic' })
      .post('/trpc/snippets.create')
      .send({ code: 'x' })
      .expect(403);
    expect(res.headers).not.to.have.property('www-authenticate');
    expect(res.body.error.data).to.include({ code: 'FORBIDDEN', httpStatus: 403 });
  });

  it("a wrong password stops a /trpc request too, answered in tRPC's error shape", async () => {
    const res = await api().get('/trpc/snippets.list').set('Authorization', basic('alice', 'nope')).expect(401);
    expect(res.headers['www-authenticate']).to.equal('Basic realm="api"');
    expect(res.body.error.data).to.deep.equal({ code: 'UNAUTHORIZED', httpStatus: 401 });
    expect(res.body.error.message).to.equal('Invalid username/password.');
  });
});
