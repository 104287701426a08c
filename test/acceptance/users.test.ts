// /users/ and /users/<pk>/: read-only records with the ids of owned snippets.
import { expect } from 'chai';
import { resetDatabase, makeUser } from '../support/db';
import { api, basic } from '../support/http';

describe('/users/', () => {
  let alice: number;
  let bob: number;
  let ids: number[];
  beforeEach(async () => {
    await resetDatabase();
    alice = (await makeUser('alice')).id;
    bob = (await makeUser('bob')).id;
    ids = [];
    for (const code of ['a', 'b'])
      ids.push(
        (await api().post('/snippets/').set('Authorization', basic('alice')).send({ code }).expect(201)).body.id,
      );
  });

  it('GET responds 200 with every user, their snippet ids, and nothing else', async () => {
    const res = await api().get('/users/').expect(200);
    expect(res.headers.allow).to.equal('GET, HEAD, OPTIONS');
    expect(res.body).to.deep.equal([
      { id: alice, username: 'alice', snippets: ids },
      { id: bob, username: 'bob', snippets: [] },
    ]);
    expect(res.text).not.to.include('password');
  });

  it('GET /users/<pk>/ responds 200 with the user', async () => {
    const res = await api().get(`/users/${alice}/`).expect(200);
    expect(res.body).to.deep.equal({ id: alice, username: 'alice', snippets: ids });
  });

  it('GET /users/<pk>/ responds 404 for an unknown pk', async () => {
    const res = await api().get('/users/999999/').expect(404);
    expect(res.body).to.deep.equal({ detail: 'Not found.' });
  });

  for (const method of ['post', 'put', 'patch', 'delete'] as const) {
    it(`${method.toUpperCase()} responds 405, even authenticated`, async () => {
      const res = await api()[method]('/users/').set('Authorization', basic('alice')).send({}).expect(405);
      expect(res.headers.allow).to.equal('GET, HEAD, OPTIONS');
      expect(res.body).to.deep.equal({ detail: `Method "${method.toUpperCase()}" not allowed.` });
    });
  }
});
