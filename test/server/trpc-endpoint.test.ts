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
    const res = await api().post('/trpc/snippets.create').set('Authorization', basic('alice')).send({ code: 'x', linenos: true }).expect(200);
    expect(res.body.result.data).to.include({ owner: 'alice', code: 'x', linenos: true });
  });

  it('keeps linenos "false" false after the REST adapter has run (no truthiness coercion)', async () => {
    await api().post('/snippets/').set('Authorization', basic('alice')).send({ code: 'x', linenos: 'false' }).expect(201);
    const res = await api().post('/trpc/snippets.create').set('Authorization', basic('alice')).send({ code: 'x', linenos: 'false' }).expect(200);
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

  it('GET /trpc/snippets.list lists snippets', async () => {
    await api().post('/trpc/snippets.create').set('Authorization', basic('alice')).send({ code: 'x' }).expect(200);
    const res = await api().get('/trpc/snippets.list').expect(200);
    expect(res.body.result.data).to.have.length(1);
  });

  it('a wrong password stops a /trpc request too, answered in tRPC\'s error shape', async () => {
    const res = await api().get('/trpc/snippets.list').set('Authorization', basic('alice', 'nope')).expect(401);
    expect(res.headers['www-authenticate']).to.equal('Basic realm="api"');
    expect(res.body.error.data).to.deep.equal({ code: 'UNAUTHORIZED', httpStatus: 401 });
    expect(res.body.error.message).to.equal('Invalid username/password.');
  });
});
