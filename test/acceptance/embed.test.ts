// The embed view /snippets/<pk>/embed/: the only page another site may frame (its CSP's `frame-ancestors *`, no
// X-Frame-Options), strict otherwise; every other page keeps `frame-ancestors 'none'` and X-Frame-Options: DENY.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { api, createSnippet } from '../support/http';

const HTML = 'text/html';

describe('the embed view', () => {
  let id: number;
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    id = (
      await createSnippet('alice', {
        title: '<b>x</b>',
        code: 'a = 1\n</pre><script>alert(1)</script>\n',
        language: 'python',
      })
    ).id;
  });

  it('may be framed by any site, and is otherwise as strict as every page: no inline script, nothing external', async () => {
    const res = await api().get(`/snippets/${id}/embed/`).expect(200);
    expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
    expect(res.headers['x-frame-options']).to.equal(undefined);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).to.include('frame-ancestors *');
    expect(csp).not.to.include("frame-ancestors 'none'");
    expect(csp).to.include("default-src 'none'; script-src 'self'; style-src 'self'");
  });

  it('shows the code highlighted and numbered, everything escaped, and links back to the snippet page', async () => {
    const res = await api().get(`/snippets/${id}/embed/`).expect(200);
    expect(res.text).to.include(
      `<a id="snippet-link" href="/snippets/${id}/" target="_blank" rel="noopener">&lt;b&gt;x&lt;/b&gt;</a>`,
    );
    expect(res.text).to.include('<span class="row" id="L2">');
    expect(res.text).to.include('&lt;/pre&gt;&lt;script&gt;');
    expect(res.text).not.to.include('<script>alert');
    expect(res.text).not.to.include('<b>x</b>');
    expect(res.text).not.to.match(/<form/);
  });

  it('keeps every other page unframeable', async () => {
    for (const path of [
      '/',
      '/snippets/',
      `/snippets/${id}/`,
      `/snippets/${id}/highlight/`,
      `/snippets/${id}/raw/`,
      `/snippets/${id}/revisions/`,
      `/snippets/${id}/revisions/1/diff/`,
      '/api-auth/login/',
    ]) {
      const res = await api().get(path).set('Accept', HTML).expect(200);
      expect(res.headers['x-frame-options'], path).to.equal('DENY');
      expect(res.headers['content-security-policy'], path).to.include("frame-ancestors 'none'");
    }
  });

  it('answers 404 for a snippet that is not there, and is offered on the snippet page as an <iframe> to copy', async () => {
    await api().get('/snippets/999/embed/').expect(404);
    const page = await api().get(`/snippets/${id}/`).set('Accept', HTML).expect(200);
    expect(page.text).to.match(
      new RegExp(
        `<input id="embed-code" type="text" readonly value="&lt;iframe src=&quot;http://127\\.0\\.0\\.1:\\d+/snippets/${id}/embed/&quot; title=&quot;&amp;lt;b&amp;gt;x`,
      ),
    );
  });
});
