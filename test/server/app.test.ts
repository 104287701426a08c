// createApp(): the pieces mounted in order — the API description and reference page are served by the real app.
import { expect } from 'chai';
import { api } from '../support/http';

describe('createApp()', () => {
  it('serves GET /openapi.json and GET /docs', async () => {
    const doc = await api().get('/openapi.json').expect(200);
    expect(doc.body.openapi).to.match(/^3\.1/);
    expect(Object.keys(doc.body.paths)).to.include.members([
      '/snippets/',
      '/snippets/{id}/',
      '/users/',
      '/users/{id}/',
    ]);
    const page = await api().get('/docs').expect(200);
    expect(page.headers['content-type']).to.match(/^text\/html/);
  });

  it('answers an unknown path 404 {"detail":"Not found."}', async () => {
    expect((await api().get('/nonexistent/').expect(404)).body).to.deep.equal({ detail: 'Not found.' });
  });
});
