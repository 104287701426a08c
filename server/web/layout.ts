// The page shell shared by every page (the snippet pages, the browsable API, the login page): navbar with a new-snippet
// link and the user, a light/dark switch, local assets only.
import type { Request, Response } from 'express';
import { html, type Html } from './html';
import { urls } from '../http/urls';

export function userMenu(req: Request, res: Response): Html {
  const user = req.requester?.user;
  const login = urls(req).reverseIfMounted('framework:login');
  const logout = urls(req).reverseIfMounted('framework:logout');
  if (user) {
    // Personal access tokens are managed when signed in with a session (src/access.ts).
    const tokens =
      req.requester.scheme === 'session'
        ? html`<a id="tokens-link" href="${urls(req).reverse('token-list')}">Tokens</a> `
        : '';
    return html`${tokens}<span class="user">${user.username}</span>${
      logout && req.requester.scheme === 'session'
        ? html`<form class="inline" method="post" action="${logout}?next=${encodeURIComponent(req.path)}">
            <input type="hidden" name="csrfmiddlewaretoken" value="${res.locals.csrfToken}">
            <button type="submit" class="link" id="logout">Log out</button></form>`
        : ''
    }`;
  }
  return login ? html`<a id="login" href="${login}?next=${encodeURIComponent(req.originalUrl)}">Log in</a>` : html``;
}

/** `head`: more of the head, such as the stylesheet of a snippet's style. */
export function layout(req: Request, res: Response, title: string, content: Html, head: Html = html``): string {
  const registry = urls(req);
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="NONE,NOARCHIVE">
<title>${title} – Snippets API</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/api.css">
${head}<script src="/static/theme.js"></script>
<script src="/static/api.js" defer></script>
</head>
<body>
<header class="navbar"><a class="brand" href="${registry.reverse('api-root')}">Snippets</a><nav class="right" aria-label="Site">
<a id="snippets-link" href="${registry.reverse('snippet-list')}">All snippets</a>
<a id="new-snippet" class="button" href="${registry.reverse('snippet-new')}">New snippet</a>
<button type="button" id="theme-toggle" class="link" hidden>Dark mode</button>
${userMenu(req, res)}</nav></header>
<main>${content}</main>
</body>
</html>
`.value;
}
