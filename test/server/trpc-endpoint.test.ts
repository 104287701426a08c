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
