// GET /openapi.json (built once, at the first request) and GET /docs with its local assets.
import express, { type Router } from 'express';
import { DEFAULT_SECURITY, buildOpenApiDocument } from './document';
import { ASSETS_PATH, DOCS_ASSETS } from './docs-assets';
import { DOCS_CSP, DOCS_PAGE, OPENAPI_PATH } from './docs-page';
import type { SecurityOptions } from './security';

/** Pass the app's config so the document lists exactly the configured authentication schemes. */
export function openapiRouter(options: SecurityOptions = DEFAULT_SECURITY): Router {
  const router = express.Router();
  let document: string | undefined;

  router.get(OPENAPI_PATH, (_req, res) => {
    document ??= JSON.stringify(buildOpenApiDocument(options));
    res.type('application/json').send(document);
  });

  router.get('/docs', (_req, res) => {
    res.set('Content-Security-Policy', DOCS_CSP).type('html').send(DOCS_PAGE);
  });

  router.get(`${ASSETS_PATH}/:name`, (req, res, next) => {
    const file = DOCS_ASSETS.get(req.params.name);
    if (!file) return next();
    res.sendFile(file, { maxAge: '1h' });
  });

  return router;
}
