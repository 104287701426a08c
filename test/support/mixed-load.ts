// 200 requests of every kind at once against a running service: reads, Token/Basic/session creates, failed password checks.
import { csrfFrom, loginThroughForm } from './pages';

/** A bound for a request that hangs, not a measure: 200 at once on a busy 2-core machine took over 30 s each. */
const BOUND_MS = 120_000;

export interface MixedOutcome {
  /** "kind status" → count, e.g. "token-create 201". */
  statuses: Record<string, number>;
  /** Requests that got no answer within the bound, or a socket error. */
  failures: string[];
  /** Ids and codes of the snippets a 201 acknowledged. */
  created: { id: number; code: string }[];
}

/** What each kind may answer: anything else (a 5xx above all) is a failure. */
const EXPECTED: Record<string, number[]> = {
  read: [200],
  'token-create': [201],
  'basic-create': [201],
  'session-create': [201],
  'failed-token-auth': [400, 429],
  'failed-basic': [401, 429],
};

/** Guesses come from addresses of their own (the service trusts X-Forwarded-For): the owner's stay usable. */
const guesser = (i: number) => ({ 'X-Forwarded-For': `203.0.113.${i % 50}` });

const basicHeader = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Sends 200 requests at once (the service must trust X-Forwarded-For: TRUST_PROXY=1); every one is bounded (30 s), so a stalled service fails instead of hanging the suite. */
export async function mixedLoad(
  base: string,
  user: { username: string; password: string; token: string },
  snippetId: number,
): Promise<MixedOutcome> {
  const cookie = await loginThroughForm(base, user.username, user.password);
  const page = await (await fetch(`${base}/snippets/`, { headers: { Cookie: cookie, Accept: 'text/html' } })).text();
  const csrf = csrfFrom(page);
  const json = { 'Content-Type': 'application/json' };
  const kinds: [string, (i: number) => Promise<Response>][] = [
    [
      'read',
      (i) => fetch(`${base}/snippets/${i % 2 ? '' : `${snippetId}/`}`, { signal: AbortSignal.timeout(BOUND_MS) }),
    ],
    ['token-create', (i) => create({ ...json, Authorization: `Token ${user.token}` }, `token ${i}`)],
    [
      'basic-create',
      (i) => create({ ...json, Authorization: basicHeader(user.username, user.password) }, `basic ${i}`),
    ],
    ['session-create', (i) => create({ ...json, Cookie: cookie, 'X-CSRFToken': csrf }, `session ${i}`)],
    [
      'failed-token-auth',
      (i) =>
        fetch(`${base}/api-token-auth/`, {
          method: 'POST',
          headers: { ...json, ...guesser(i) },
          body: JSON.stringify({ username: user.username, password: `wrong ${i}` }),
          signal: AbortSignal.timeout(BOUND_MS),
        }),
    ],
    [
      'failed-basic',
      (i) =>
        fetch(`${base}/users/`, {
          headers: { ...guesser(i), Authorization: basicHeader(user.username, `wrong ${i}`) },
          signal: AbortSignal.timeout(BOUND_MS),
        }),
    ],
  ];
  function create(headers: Record<string, string>, code: string): Promise<Response> {
    return fetch(`${base}/snippets/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ code }),
      signal: AbortSignal.timeout(BOUND_MS),
    });
  }
  const outcome: MixedOutcome = { statuses: {}, failures: [], created: [] };
  await Promise.all(
    Array.from({ length: 200 }, async (_, i) => {
      const [kind, send] = kinds[i % kinds.length]!;
      try {
        const res = await send(i);
        const text = await res.text();
        outcome.statuses[`${kind} ${res.status}`] = (outcome.statuses[`${kind} ${res.status}`] ?? 0) + 1;
        if (res.status === 201) {
          const body = JSON.parse(text) as { id: number; code: string };
          outcome.created.push({ id: body.id, code: body.code });
        }
      } catch (err) {
        outcome.failures.push(`${kind}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }),
  );
  return outcome;
}

/** The statuses no kind may answer, as "kind status" lines. */
export function unexpected(outcome: MixedOutcome): string[] {
  return Object.keys(outcome.statuses).filter((key) => {
    const [kind, status] = key.split(' ');
    return !EXPECTED[kind!]!.includes(Number(status));
  });
}
