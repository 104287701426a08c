// Content negotiation on API paths: JSON by default, HTML for browsers, ?format= overrides, 406 otherwise.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic } from '../support/http';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('content negotiation', () => {
  let id: number;
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    id = (await api().post('/snippets/').set('Authorization', basic('alice')).send({ code: 'x' }).expect(201)).body.id;
  });

  for (const accept of [undefined, '*/*', 'application/json', 'application/json; indent=4', 'application/*']) {
    it(`GET /snippets/<pk>/ with Accept ${accept ?? '(none)'} answers JSON`, async () => {
      const req = api().get(`/snippets/${id}/`);
      const res = await (accept ? req.set('Accept', accept) : req).expect(200);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.headers.vary).to.match(/Accept/);
    });
  }

  it('GET /snippets/<pk>/ from a browser answers the snippet page', async () => {
    const res = await api().get(`/snippets/${id}/`).set('Accept', BROWSER_ACCEPT).expect(200);
    expect(res.headers['content-type']).to.match(/^text\/html/);
    expect(res.text).to.include('<div class="code-box">');
    expect(res.text).to.include(`href="/snippets/${id}/highlight/"`);
  });

  it('?format=json overrides a browser Accept header', async () => {
    const res = await api().get(`/snippets/${id}/?format=json`).set('Accept', BROWSER_ACCEPT).expect(200);
    expect(res.headers['content-type']).to.match(/^application\/json/);
  });

  it('?format=api answers HTML to an API client', async () => {
    const res = await api().get('/snippets/?format=api').expect(200);
    expect(res.headers['content-type']).to.match(/^text\/html/);
  });

  it('an Accept nothing satisfies answers 406 with detail, in JSON', async () => {
    const res = await api().get(`/snippets/${id}/`).set('Accept', 'application/xml').expect(406);
    expect(res.headers['content-type']).to.match(/^application\/json/);
    expect(res.body).to.deep.equal({ detail: 'Could not satisfy the request Accept header.' });
  });

  it('the same Accept header asked again (the remembered choice) answers as it did the first time', async () => {
    const cases = [
      ['text/html;q=0.5, application/json;q=0.9', 200, /^application\/json/],
      ['application/json;q=0.1, text/html', 200, /^text\/html/],
      ['image/png, application/xml', 406, /^application\/json/],
    ] as const;
    for (let round = 0; round < 2; round++) {
      for (const [accept, status, type] of cases) {
        const res = await api().get(`/snippets/${id}/`).set('Accept', accept).expect(status);
        expect(res.headers['content-type'], `${accept}, round ${round}`).to.match(type);
      }
    }
  });

  it('errors follow the negotiation: a 404 for a browser is an HTML page with the detail', async () => {
    const res = await api().get('/snippets/999999/').set('Accept', BROWSER_ACCEPT).expect(404);
    expect(res.headers['content-type']).to.match(/^text\/html/);
    expect(res.text).to.include('Not found.');
  });

  it('a 401 for a browser keeps WWW-Authenticate and renders the page', async () => {
    const res = await api().post('/snippets/').set('Accept', BROWSER_ACCEPT).send({ code: 'x' }).expect(401);
    expect(res.headers['www-authenticate']).to.equal('Basic realm="api"');
    expect(res.headers['content-type']).to.match(/^text\/html/);
  });
});

describe('GET /', () => {
  it('answers the top-level endpoints as absolute URLs', async () => {
    const res = await api().get('/').expect(200);
    expect(Object.keys(res.body)).to.deep.equal(['snippets', 'users']);
    expect(res.body.snippets).to.match(/^http:\/\/127\.0\.0\.1:\d+\/snippets\/$/);
    expect(res.body.users).to.match(/^http:\/\/127\.0\.0\.1:\d+\/users\/$/);
  });

  it('POST / responds 405', async () => {
    const res = await api().post('/').send({}).expect(405);
    expect(res.headers.allow).to.equal('GET, HEAD, OPTIONS');
  });
});
