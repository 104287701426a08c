// The personal access tokens page under the account menu (GET /tokens/ as a page): the create form, each token with
// its revoke button, and after a creation the key, shown this once. The data comes from the tokens procedures.
import type { Response } from 'express';
import { html, type Html } from './html';

type FieldErrors = Record<string, string[]>;

const SCOPE_CHOICES = [
  ['read', 'read: list and read snippets'],
  ['write', 'write: create, edit, delete and restore your snippets'],
  ['read write', 'read and write'],
] as const;

const DAY = 24 * 3600;
const LIFETIMES = [7, 30, 90, 180, 365].map((days) => days * DAY);

function errorList(messages: readonly string[] | undefined): Html | string {
  return messages?.length ? html`<ul class="errorlist">${messages.map((m) => html`<li>${m}</li>`)}</ul>` : '';
}

/** The create form; its lifetimes are those up to PERSONAL_TOKEN_EXPIRES_MAX, PERSONAL_TOKEN_EXPIRES_IN chosen. */
export function tokenForm(
  res: Response,
  opts: { action: string; defaultExpiresIn: number; maxExpiresIn: number; errors?: FieldErrors },
): Html {
  const errors = opts.errors ?? {};
  const lifetimes = [...new Set([...LIFETIMES, opts.defaultExpiresIn])]
    .filter((s) => s <= opts.maxExpiresIn)
    .sort((a, b) => a - b);
  const general = Object.entries(errors).flatMap(([name, m]) =>
    ['name', 'scopes', 'expires_in'].includes(name) ? [] : m,
  );
  return html`<form id="token-form" class="api-form" method="post" action="${opts.action}" data-method="POST">
<input type="hidden" name="csrfmiddlewaretoken" value="${res.locals.csrfToken}">
${errorList(general)}
<div class="field" data-field="name"><label for="token-name">Name</label><input id="token-name" name="name" maxlength="100" required placeholder="CI uploads">${errorList(errors.name)}</div>
<div class="field" data-field="scopes"><label for="token-scopes">Scopes</label><select id="token-scopes" name="scopes">${SCOPE_CHOICES.map(
    ([value, label]) => html`<option value="${value}">${label}</option>`,
  )}</select>${errorList(errors.scopes)}</div>
<div class="field" data-field="expires_in"><label for="token-expires">Expires in</label><select id="token-expires" name="expires_in">${lifetimes.map(
    (s) =>
      html`<option value="${String(s)}"${s === opts.defaultExpiresIn ? html` selected` : ''}>${s % DAY ? `${s} seconds` : `${s / DAY} days`}</option>`,
  )}</select>${errorList(errors.expires_in)}</div>
<div class="actions"><button type="submit">Create token</button></div>
<pre class="form-errors" hidden></pre>
</form>`;
}

/** Each token, with a button that revokes it (a DELETE sent by api.js, which then comes back to `back`). */
export function tokenTable(
  res: Response,
  tokens: readonly { id: number; name: string; scopes: string[]; expires: string; last_used: string | null }[],
  actionOf: (id: number) => string,
  back: string,
): Html {
  if (!tokens.length) return html`<p id="no-tokens">You have no personal access tokens.</p>`;
  return html`<table class="tokens" id="tokens"><thead><tr><th>Name</th><th>Scopes</th><th>Expires</th><th>Last used</th><th></th></tr></thead><tbody>
${tokens.map(
  (
    t,
  ) => html`<tr data-token="${String(t.id)}"><td>${t.name}</td><td>${t.scopes.join(' ')}</td><td>${t.expires}</td><td>${t.last_used ?? 'never'}</td>
<td><form class="api-form revoke-form" method="post" action="${actionOf(t.id)}" data-method="DELETE" data-next="${back}" data-confirm="Revoke this token?">
<input type="hidden" name="csrfmiddlewaretoken" value="${res.locals.csrfToken}">
<button type="submit" class="danger">Revoke</button><pre class="form-errors" hidden></pre></form></td></tr>
`,
)}</tbody></table>`;
}

export function keyNotice(key: string): Html {
  return html`<section class="notice" id="new-token"><h2>Your new token</h2>
<p>Copy it now: it is not shown again.</p><pre id="new-token-key">${key}</pre></section>`;
}
