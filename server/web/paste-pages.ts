// The paste flow's pages: /snippets/new/ (the form; it posts to /snippets/, which sends the browser on to the new
// snippet's page with a 303) and /snippets/<pk>/edit/ (the owner's form, sent by script as a PUT).
import { Router, type Request, type Response } from 'express';
import { TRPCError } from '@trpc/server';
import { NO_PERMISSION } from '../../src/errors';
import { callerFor } from '../auth/context';
import { urls, type Urls } from '../http/urls';
import { html } from './html';
import { layout } from './layout';
import { snippetForm } from './snippet-form';
import { styleSheet } from './code-view';
import type { ViewContext } from './views';

/** An anonymous visitor is sent to log in first, and back here after; false when there is no login page. */
function loggedInOrSent(req: Request, res: Response): boolean {
  if (req.requester?.user) return true;
  const login = urls(req).reverseIfMounted('framework:login');
  if (!login) throw new TRPCError({ code: 'FORBIDDEN', message: NO_PERMISSION });
  res.redirect(302, `${login}?next=${encodeURIComponent(req.originalUrl)}`);
  return false;
}

function send(res: Response, status: number, page: string): void {
  res.status(status).set('Cache-Control', 'no-store').type('html').send(page);
}

/** The paste page; with the messages and the input of a refused paste, which the refusal rule's 400 answers. */
export function newSnippetPage(req: Request, res: Response, refused?: ViewContext['refused']): string {
  const form = snippetForm(res, { method: 'POST', action: urls(req).reverse('snippet-list'), paste: true, ...refused });
  return layout(req, res, 'New snippet', html`<h1>New snippet</h1>${form}`);
}

export function pastePages(registry: Urls): Router {
  registry.register('snippet-new', '/snippets/new/');
  registry.register('snippet-edit', '/snippets/:id/edit/');
  const router = Router({ strict: true, caseSensitive: true });
  router.param('pk', (_req, _res, next, pk: string) => next(/^[0-9]+$/.test(pk) ? undefined : 'route'));
  router.get('/snippets/new/', (req, res) => {
    if (loggedInOrSent(req, res)) send(res, 200, newSnippetPage(req, res));
  });
  router.get('/snippets/:pk/edit/', async (req, res) => {
    if (!loggedInOrSent(req, res)) return;
    const id = Number(req.params.pk);
    const caller = callerFor(req);
    const snippet = await caller.snippets.get({ id });
    if (!(await caller.snippets.writable({ id }))) throw new TRPCError({ code: 'FORBIDDEN', message: NO_PERMISSION });
    const detail = registry.reverse('snippet-detail', { id });
    const { id: _id, owner: _owner, ...values } = snippet;
    const form = snippetForm(res, { method: 'PUT', action: detail, values, next: detail });
    const title = `Edit ${snippet.title || `snippet ${id}`}`;
    send(
      res,
      200,
      layout(
        req,
        res,
        title,
        html`<h1>${title}</h1><p><a href="${detail}">Back to the snippet</a></p>${form}`,
        styleSheet(snippet.style),
      ),
    );
  });
  return router;
}
