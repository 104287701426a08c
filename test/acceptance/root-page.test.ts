// The API root page's links to the API reference and the OpenAPI document, checked in its HTML: the reference's
// rendering in Chromium is test/openapi/docs-browser.test.ts's.
import { expect } from 'chai';
import { api } from '../support/http';

describe('GET / as HTML', () => {
  const links = async () => {
    const root = await api().get('/').set('Accept', 'text/html').expect(200);
    const href = (id: string) => new RegExp(`<a id="${id}" href="([^"]+)"`).exec(root.text)?.[1];
    return [href('docs-link'), href('openapi-link')];
  };

  it('links the API reference and the OpenAPI document', async () => {
    expect(await links()).to.deep.equal(['/docs', '/openapi.json']);
  });

  it('whose links answer: the reference page and the document', async () => {
    const [docs, openapi] = await links();
    expect((await api().get(docs!).expect(200)).headers['content-type']).to.match(/^text\/html/);
    expect((await api().get(openapi!).expect(200)).body).to.have.property('openapi');
  });
});
