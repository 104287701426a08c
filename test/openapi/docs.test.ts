// GET /docs: the API reference page, under a strict CSP, loading only assets this app serves.
import { expect } from 'chai';
import supertest from 'supertest';
import { openapiApp } from './support';

/** The src/href of every script and link element in a page. */
function references(html: string): string[] {
  return [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
}

describe('GET /docs', () => {
  const request = () => supertest(openapiApp());

  it('responds 200 text/html with a CSP allowing scripts from this origin only', async () => {
    const res = await request().get('/docs').expect(200);
    expect(res.headers['content-type']).to.match(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    const scriptSrc = csp
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('script-src'));
    expect(scriptSrc).to.equal("script-src 'self'");
    expect(csp).to.include("default-src 'none'");
  });

  it('has no inline script and references only local assets', async () => {
    const html = (await request().get('/docs')).text;
    expect(html).not.to.match(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.to.match(/\son[a-z]+=/i);
    const refs = references(html);
    expect(refs).to.have.length.greaterThan(2);
    for (const ref of refs) expect(ref, ref).to.match(/^\/(?!\/)/);
    expect(html).not.to.match(/https?:\/\//);
  });

  it('serves every asset it references, with the right type', async () => {
    const refs = references((await request().get('/docs')).text);
    for (const ref of refs) {
      const res = await request().get(ref).expect(200);
      const expected = ref.endsWith('.js') ? /javascript/ : ref.endsWith('.css') ? /^text\/css/ : /^image\//;
      expect(res.headers['content-type'], ref).to.match(expected);
    }
  });

  it('points Swagger UI at /openapi.json, which is served', async () => {
    const html = (await request().get('/docs')).text;
    expect(html).to.include('data-url="/openapi.json"');
    await request().get('/openapi.json').expect(200);
  });

  it('serves nothing else from the package folder', async () => {
    await request().get('/docs/assets/index.html').expect(404);
    await request().get('/docs/assets/swagger-initializer.js').expect(404);
    await request().get('/docs/assets/..%2fpackage.json').expect(404);
  });
});
