// A personal access token's scopes on the write paths personal-tokens.test.ts does not walk: every snippet mutation
// through /trpc (create, update, delete, restore) and the pages' forms (the paste form and the history page's restore
// button, which post to the same routes as a browser does). A read token is refused each, 403 naming the scope and
// changing nothing; a write token does each. src/access.ts is the one rule.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic } from '../support/http';

const DETAIL = 'This token does not have the "write" scope this request needs.';

async function keyOf(scopes: string[]): Promise<string> {
  const res = await api().post('/tokens/').set('Authorization', basic('alice')).send({ name: 'k', scopes });
  expect(res.status, res.text).to.equal(201);
  return res.body.key as string;
}

describe('personal access token scopes on /trpc and the pages', () => {
  let id: number;
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    id = (await api().post('/snippets/').set('Authorization', basic('alice')).send({ code: 'v1' }).expect(201)).body
      .id as number;
    await api().put(`/snippets/${id}/`).set('Authorization', basic('alice')).send({ code: 'v2' }).expect(200);
  });

  const trpcWrites = () =>
    [
      ['snippets.create', { code: 'new' }],
      ['snippets.update', { id, code: 'changed' }],
      ['snippets.restore', { id, n: 1 }],
      ['snippets.delete', { id }],
    ] as const;

  it('a read token is refused 403 on every /trpc mutation, as Token and as Bearer, and nothing changes', async () => {
    const key = await keyOf(['read']);
    for (const [procedure, input] of trpcWrites()) {
      for (const scheme of ['Token', 'Bearer']) {
        const res = await api().post(`/trpc/${procedure}`).set('Authorization', `${scheme} ${key}`).send(input);
        expect(res.status, `${procedure} ${scheme}`).to.equal(403);
        expect(res.body.error.message, procedure).to.equal(DETAIL);
      }
    }
    const stored = await api().get(`/snippets/${id}/`).expect(200);
    expect(stored.body.code).to.equal('v2');
    expect(JSON.stringify((await api().get('/snippets/').expect(200)).body)).not.to.include('"new"');
  });

  it('a write token does each /trpc mutation', async () => {
    const key = await keyOf(['write']);
    for (const [procedure, input] of trpcWrites()) {
      const res = await api().post(`/trpc/${procedure}`).set('Authorization', `Token ${key}`).send(input);
      expect(res.status, `${procedure}: ${res.text}`).to.equal(200);
    }
    await api().get(`/snippets/${id}/`).expect(404);
  });

  it("a read token is refused the pages' paste form and restore button (403, nothing made or restored)", async () => {
    const key = await keyOf(['read']);
    const paste = await api()
      .post('/snippets/')
      .set('Authorization', `Token ${key}`)
      .set('Accept', 'text/html')
      .type('form')
      .send({ code: 'pasted', title: '', language: '' });
    expect(paste.status, paste.text).to.equal(403);
    // The browsable API's page shows the JSON answer, its detail escaped as JSON, then as HTML.
    expect(paste.text).to.include('HTTP 403 Forbidden').and.include('does not have the \\&quot;write\\&quot; scope');
    const restore = await api()
      .post(`/snippets/${id}/revisions/1/restore/`)
      .set('Authorization', `Bearer ${key}`)
      .set('Accept', 'text/html')
      .type('form')
      .send({});
    expect(restore.status, restore.text).to.equal(403);
    expect((await api().get(`/snippets/${id}/`).expect(200)).body.code).to.equal('v2');
    expect(JSON.stringify((await api().get('/snippets/').expect(200)).body)).not.to.include('pasted');
  });

  it('a write token pastes and restores through the same forms', async () => {
    const key = await keyOf(['write']);
    const paste = await api()
      .post('/snippets/')
      .set('Authorization', `Token ${key}`)
      .set('Accept', 'text/html')
      .type('form')
      .send({ code: 'pasted', title: '', language: '' });
    expect(paste.status, paste.text).to.be.oneOf([201, 302, 303]);
    const restore = await api()
      .post(`/snippets/${id}/revisions/1/restore/`)
      .set('Authorization', `Token ${key}`)
      .set('Accept', 'text/html')
      .type('form')
      .send({});
    expect(restore.status, restore.text).to.be.oneOf([200, 302, 303]);
    expect((await api().get(`/snippets/${id}/`).expect(200)).body.code).to.equal('v1');
  });
});
