// GET /snippets/<pk>/highlight/ (the stored document) and /snippets/<pk>/raw/ (the code as plain text).
import { Router } from 'express';
import { callerFor } from '../auth/context';
import type { Urls } from '../http/urls';

/** The stored document has its own inline <style>; nothing in it may run. */
const DOCUMENT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function snippetViews(urls: Urls): Router {
  urls.register('snippet-highlight', '/snippets/:id/highlight/');
  urls.register('snippet-raw', '/snippets/:id/raw/');
  const router = Router({ strict: true, caseSensitive: true });
  // <pk> is digits, as on every snippet path; anything else falls through to the 404.
  router.param('pk', (_req, _res, next, pk: string) => next(/^[0-9]+$/.test(pk) ? undefined : 'route'));
  router.get('/snippets/:pk/highlight/', async (req, res) => {
    const document = await callerFor(req).snippets.highlighted({ id: Number(req.params.pk) });
    res
      .set({ 'Content-Security-Policy': DOCUMENT_CSP, 'X-Content-Type-Options': 'nosniff' })
      .type('text/html; charset=utf-8')
      .send(document);
  });
  router.get('/snippets/:pk/raw/', async (req, res) => {
    const snippet = await callerFor(req).snippets.get({ id: Number(req.params.pk) });
    res.set({ 'X-Content-Type-Options': 'nosniff' }).type('text/plain; charset=utf-8').send(snippet.code);
  });
  return router;
}
