// GET /snippets/<pk>/highlight/ (the stored document), /snippets/<pk>/raw/ (the code as plain text) and
// /snippets/<pk>/download/ (the same, as a file named from the title or language); /snippets/<pk>/embed/ (the view
// other sites may frame, embed-page.ts).
import { Router } from 'express';
import { callerFor } from '../auth/context';
import type { Urls } from '../http/urls';
import { embedPage } from './embed-page';
import { downloadName } from './file-names';

/**
 * The stored document is shaped for a desktop; served, it is read at a phone's width too, its long lines scrolling in
 * their own box rather than the whole page sideways (the stored record itself is left as saved).
 */
const FOR_PHONES =
  '<meta name="viewport" content="width=device-width, initial-scale=1">\n  <style>.highlight { overflow-x: auto; max-width: 100%; }</style>';

/** The stored document has its own inline <style>; nothing in it may run. */
const DOCUMENT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function snippetViews(urls: Urls): Router {
  urls.register('snippet-highlight', '/snippets/:id/highlight/');
  urls.register('snippet-raw', '/snippets/:id/raw/');
  urls.register('snippet-download', '/snippets/:id/download/');
  urls.register('snippet-embed', '/snippets/:id/embed/');
  const router = Router({ strict: true, caseSensitive: true });
  // <pk> is digits, as on every snippet path; anything else falls through to the 404.
  router.param('pk', (_req, _res, next, pk: string) => next(/^[0-9]+$/.test(pk) ? undefined : 'route'));
  router.get('/snippets/:pk/highlight/', async (req, res) => {
    const document = await callerFor(req).snippets.highlighted({ id: Number(req.params.pk) });
    res
      .set({ 'Content-Security-Policy': DOCUMENT_CSP, 'X-Content-Type-Options': 'nosniff' })
      .type('text/html; charset=utf-8')
      .send(document.replace('<meta charset="utf-8">', `<meta charset="utf-8">\n  ${FOR_PHONES}`));
  });
  router.get('/snippets/:pk/raw/', async (req, res) => {
    const snippet = await callerFor(req).snippets.get({ id: Number(req.params.pk) });
    res.set({ 'X-Content-Type-Options': 'nosniff' }).type('text/plain; charset=utf-8').send(snippet.code);
  });
  router.get('/snippets/:pk/download/', async (req, res) => {
    const snippet = await callerFor(req).snippets.get({ id: Number(req.params.pk) });
    res
      .attachment(downloadName(snippet))
      .set({ 'X-Content-Type-Options': 'nosniff' })
      .type('text/plain; charset=utf-8')
      .send(snippet.code);
  });
  router.get('/snippets/:pk/embed/', embedPage);
  return router;
}
