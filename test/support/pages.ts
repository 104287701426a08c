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
