// What tests read from pages and responses as a browser would: the CSRF token of a form, and cookies.

/** The CSRF token a page embeds in its forms. */
export function csrfFrom(html: string): string {
  const match = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no CSRF token in the page');
  return match[1]!;
}

/** Adds a fetch response's Set-Cookie pairs to the jar; returns the jar as a Cookie header. */
export function cookies(res: Response, jar: Map<string, string>): string {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

/** Logs a user in on a running service through the login form; the Cookie header of the session. */
export async function loginThroughForm(base: string, username: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const form = await fetch(`${base}/api-auth/login/`);
  const cookie = cookies(form, jar);
  const csrf = csrfFrom(await form.text());
  const res = await fetch(`${base}/api-auth/login/`, {
    method: 'POST',
    redirect: 'manual',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password, csrfmiddlewaretoken: csrf }),
  });
  if (res.status !== 302) throw new Error(`login answered ${res.status}`);
  return cookies(res, jar);
}

/** As a browser page would: reads the list page with the session (its user name and CSRF token), then creates a snippet. */
export async function createWithSession(
  base: string,
  cookie: string,
  code: string,
): Promise<{ pageUser?: string; created: Response }> {
  const html = await (await fetch(`${base}/snippets/`, { headers: { Cookie: cookie, Accept: 'text/html' } })).text();
  const pageUser = /<span class="user">([^<]*)<\/span>/.exec(html)?.[1];
  const created = await fetch(`${base}/snippets/`, {
    method: 'POST',
    headers: { Cookie: cookie, 'X-CSRFToken': csrfFrom(html), 'Content-Type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  return { pageUser, created };
}
