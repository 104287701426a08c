// Credentials the bench's clients use: a session cookie through the login page, the user's API token, seeded snippets.
const TIMEOUT_MS = 10000;

/** The `name=value` part of a response's cookie called `name`, if it set one. */
function cookie(res: Response, name: string): string | undefined {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith(`${name}=`));
}

/** Logs in as an HTTP client does: GET the form for its `csrftoken` cookie, POST the credentials with it; the `sessionid=…` cookie of the new session. */
export async function sessionLogin(base: string, username: string, password: string): Promise<string> {
  const page = await fetch(`${base}/api-auth/login/`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  await page.arrayBuffer();
  const csrf = cookie(page, 'csrftoken');
  if (page.status !== 200 || !csrf) throw new Error(`login page: ${page.status}, no csrftoken cookie`);
  const res = await fetch(`${base}/api-auth/login/`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Cookie: csrf,
      'X-CSRFToken': csrf.slice('csrftoken='.length),
    },
    body: new URLSearchParams({ username, password, next: '/' }).toString(),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  await res.arrayBuffer();
  const session = cookie(res, 'sessionid');
  if (res.status !== 302 || !session) throw new Error(`login: ${res.status}, expected a 302 with a new session cookie`);
  return session;
}

export async function apiToken(base: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api-token-auth/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** `count` snippets created with the token; their ids. */
export async function seedSnippets(base: string, token: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${base}/snippets/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Token ${token}` },
      body: JSON.stringify({ title: `snippet ${i}`, code: `def f${i}(x):\n    return x * ${i}\n` }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
    ids.push(((await res.json()) as { id: number }).id);
  }
  return ids;
}
