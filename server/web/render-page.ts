// Which page answers a request for HTML: the snippet and list pages people use for a snippet and the list, the paste
// page again for a refused paste; the browsable API's page for everything else and whenever `?format=api` asks.
import type { Request, Response } from 'express';
import type { Snippet } from '../../src/snippets/schema';
import { renderApiPage } from './api-page';
import { newSnippetPage } from './paste-pages';
import { snippetListPage } from './snippet-list-page';
import { snippetPage } from './snippet-page';
import { refusedWrite } from './views';

export async function renderPage(req: Request, res: Response, status: number, body: unknown): Promise<string> {
  const procedure = res.locals.route?.procedure;
  const api = new URL(req.originalUrl, 'http://local').searchParams.get('format') === 'api';
  if (!api && status === 200 && (req.method === 'GET' || req.method === 'HEAD')) {
    if (procedure === 'snippets.get') return snippetPage(req, res, body as Snippet);
    if (procedure === 'snippets.list') return snippetListPage(req, res, body as Snippet[]);
  }
  const refused = refusedWrite(res);
  if (!api && status === 400 && req.method === 'POST' && procedure === 'snippets.create' && refused)
    return newSnippetPage(req, res, refused);
  return renderApiPage(req, res, status, body);
}
