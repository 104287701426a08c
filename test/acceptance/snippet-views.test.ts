// /snippets/<pk>/highlight/ and /snippets/<pk>/raw/: the stored document and the code, with safe headers.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic } from '../support/http';

describe('snippet views', () => {
  const code = 'print("<script>alert(1)</script> & co")\n';
  let id: number;
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    id = (
      await api().post('/snippets/').set('Authorization', basic('alice')).send({ code, title: '<b>t</b>' }).expect(201)
    ).body.id;
  });

  describe('GET /snippets/<pk>/highlight/', () => {
    it('answers the stored document as text/html with a CSP that forbids scripts and nosniff', async () => {
      const res = await api().get(`/snippets/${id}/highlight/`).expect(200);
      expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).to.include("default-src 'none'").and.not.include('script-src');
      expect(res.headers['x-content-type-options']).to.equal('nosniff');
      expect(res.text).to.match(/^<!DOCTYPE html>/i);
      expect(res.text).not.to.include('<script>');
    });

    it('answers HEAD with the headers and no body', async () => {
      const res = await api().head(`/snippets/${id}/highlight/`).expect(200);
      expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(res.text ?? '').to.equal('');
    });

    it('responds 404 for an unknown or non-digit pk', async () => {
      expect((await api().get('/snippets/999999/highlight/').expect(404)).body).to.deep.equal({ detail: 'Not found.' });
      await api().get('/snippets/abc/highlight/').expect(404);
    });
  });

  describe('GET /snippets/<pk>/raw/', () => {
    it('answers the code exactly as text/plain', async () => {
      const res = await api().get(`/snippets/${id}/raw/`).expect(200);
      expect(res.headers['content-type']).to.equal('text/plain; charset=utf-8');
      expect(res.text).to.equal(code);
    });

    it('responds 404 for an unknown pk', async () => {
      await api().get('/snippets/999999/raw/').expect(404);
    });
  });
});
