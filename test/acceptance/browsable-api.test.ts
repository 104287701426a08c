// The browsable API pages as HTML (`?format=api` for a snippet and the list, whose pages people get otherwise):
// escaping, links, and which forms a requester gets.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic } from '../support/http';

const HTML = 'text/html';

describe('browsable API pages', () => {
  let id: number;
  let aliceId: number;
  beforeEach(async () => {
    await resetDatabase();
    aliceId = (await makeUser('alice')).id;
    await makeUser('bob');
    id = (
      await api()
        .post('/snippets/')
        .set('Authorization', basic('alice'))
        .send({ code: '<script>alert(1)</script><img src=x onerror=alert(2)>', title: '"><script>alert(3)</script>' })
        .expect(201)
    ).body.id;
  });

  it('GET /snippets/ escapes user content and links ids and owners', async () => {
    const res = await api().get('/snippets/?format=api').expect(200);
    expect(res.text).not.to.include('<script>alert');
    expect(res.text).not.to.include('<img src=x');
    expect(res.text).to.include('&lt;script&gt;');
    expect(res.text).to.include(`<a href="/snippets/${id}/">`);
    expect(res.text).to.include(`<a href="/users/${aliceId}/">`);
    expect(res.headers['content-security-policy']).to.include("script-src 'self'");
  });

  it('GET /snippets/ shows the create form to an authenticated user only, with sorted choices', async () => {
    const anon = await api().get('/snippets/?format=api').expect(200);
    expect(anon.text).not.to.include('id="create-form"');
    const alice = await api().get('/snippets/?format=api').set('Authorization', basic('alice')).expect(200);
    expect(alice.text).to.include('id="create-form"');
    const languages = [...alice.text.matchAll(/<select id="language" name="language">(.*?)<\/select>/gs)][0]![1]!;
    const values = [...languages.matchAll(/value="([^"]+)"/g)].map((m) => m[1]!);
    expect(values).to.deep.equal([...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(languages).to.include('value="python" selected');
  });

  it('GET /snippets/<pk>/ shows edit and delete forms to the owner only', async () => {
    const owner = await api().get(`/snippets/${id}/?format=api`).set('Authorization', basic('alice')).expect(200);
    expect(owner.text).to.include('id="edit-form"').and.include('id="delete-form"');
    const other = await api().get(`/snippets/${id}/?format=api`).set('Authorization', basic('bob')).expect(200);
    expect(other.text).not.to.include('id="edit-form"');
  });

  it('GET /users/<pk>/ links the snippet ids', async () => {
    const res = await api().get(`/users/${aliceId}/`).set('Accept', HTML).expect(200);
    expect(res.text).to.include(`<a href="/snippets/${id}/">`);
  });

  it('serves its assets locally', async () => {
    for (const path of ['/snippets/?format=api', '/snippets/', `/snippets/${id}/`]) {
      const res = await api().get(path).set('Accept', HTML).expect(200);
      for (const [, src] of res.text.matchAll(/(?:src|href)="(\/(?:static|themes)\/[^"]+)"/g))
        await api().get(src!).expect(200);
      expect(res.text).not.to.match(/(?:src|href)="https?:/);
    }
  });

  it('GET /favicon.ico answers the SVG icon, not a 404 (browsers ask on every page, the highlight view too)', async () => {
    const res = await api().get('/favicon.ico').expect(200);
    expect(res.headers['content-type']).to.match(/^image\/svg\+xml/);
    expect(res.text ?? res.body.toString()).to.include('<svg');
  });
});
