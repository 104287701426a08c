// The suite's log: every app the tests build logs at debug into memory, and every credential that crosses the wire
// (sent by a test or handed out by the app) is noted, so a root hook can prove none of them was ever logged, naming the
// test in which one was (test/setup.ts).
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { createLogger } from '../../src/log';

const lines: string[] = [];
const credentials = new Set<string>();

/** The logger given to every app of the suite: debug level, into `lines`. */
export const suiteLogger = createLogger('debug', { write: (line: string) => void lines.push(line) });

export function suiteLogRecords(): (Record<string, unknown> & { level: string; msg: string })[] {
  return lines.map((line) => JSON.parse(line) as Record<string, unknown> & { level: string; msg: string });
}

/** Shorter values (a test's "x" or "wrong") would match unrelated text; none of the suite's credentials is that short. */
const MIN_LENGTH = 6;
/** Body, query and JSON answer fields that hold a credential: password, token, access_token, refresh_token, client_secret, csrfmiddlewaretoken… */
const SECRET_FIELD = /pass|token|secret|csrf|signature/i;

/** The value as it is and URI-decoded (a value that does not decode, a forged cookie say, as it is). */
function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function note(value: unknown): void {
  if (typeof value !== 'string') return;
  for (const v of [value, decoded(value)]) if (v.length >= MIN_LENGTH) credentials.add(v);
}

function noteFields(fields: unknown): void {
  if (!fields || typeof fields !== 'object') return;
  for (const key of Object.keys(fields)) if (SECRET_FIELD.test(key)) note((fields as Record<string, unknown>)[key]);
}

/** A cookie's value, and for a signed session cookie (`s:<id>.<signature>`) the session id alone. */
function noteCookie(value: string): void {
  note(value);
  const signed = /^s:([^.]+)\./.exec(decoded(value));
  if (signed) note(signed[1]);
}

function noteAuthorization(header: string): void {
  note(header);
  const [scheme = '', ...rest] = header.split(' ');
  const credential = rest.join(' ');
  note(credential);
  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(credential, 'base64').toString('utf8');
    note(decoded);
    note(decoded.slice(decoded.indexOf(':') + 1));
  }
  // OAuth 1.0a: the signature and the token travel as quoted parameters. Only in that scheme's header: over another's
  // long credential (a malformed test's kilobytes of word characters) the pattern backtracks in quadratic time.
  if (scheme.toLowerCase() === 'oauth')
    for (const [, key, value] of credential.matchAll(/(\w+)="([^"]*)"/g)) if (SECRET_FIELD.test(key!)) note(value);
}

/** A personal access token's key wherever it appears (src/auth/personal-tokens.ts: `snp_` and 43 base64url characters). */
const PERSONAL_TOKEN = /snp_[A-Za-z0-9_-]{43}/g;

/** Every personal access token key in a text: an answer (JSON or a page), a command's output. */
export function noteKeysIn(text: string): void {
  for (const [key] of text.matchAll(PERSONAL_TOKEN)) note(key);
}

function noteRequest(req: IncomingMessage): void {
  const { authorization, cookie } = req.headers;
  if (authorization) noteAuthorization(authorization);
  for (const pair of cookie?.split(';') ?? []) noteCookie(pair.slice(pair.indexOf('=') + 1).trim());
  note(req.headers['x-csrftoken']);
  noteFields(Object.fromEntries(new URL(req.url ?? '/', 'http://x').searchParams));
}

/** What the app parsed (a form's password, a grant's refresh_token) and what it handed out (cookies, tokens in a JSON answer). */
function noteResponse(req: IncomingMessage & { body?: unknown }, res: ServerResponse, body: string): void {
  noteFields(req.body);
  noteKeysIn(body);
  for (const line of [res.getHeader('set-cookie') ?? []].flat())
    noteCookie(String(line).split(';')[0]!.split('=').slice(1).join('='));
  if (/json/.test(String(res.getHeader('content-type'))) && SECRET_FIELD.test(body)) {
    try {
      noteFields(JSON.parse(body));
    } catch {
      // not a JSON object
    }
  }
}

/** The app, with every credential of every request and answer noted on the way. */
export function noting(app: RequestListener): RequestListener {
  return (req, res) => {
    noteRequest(req);
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((...args: unknown[]) => {
      const [chunk] = args;
      noteResponse(req, res, typeof chunk === 'string' || Buffer.isBuffer(chunk) ? chunk.toString() : '');
      return end(...args);
    }) as ServerResponse['end'];
    app(req, res);
  };
}

const inText = (text: string, c: string) => text.includes(c) || text.includes(JSON.stringify(c).slice(1, -1));

/** The credentials noted so far that appear in the suite's log, as they are or as JSON escapes them. */
export function leakedCredentials(): { credentials: number; records: number; leaked: string[] } {
  const text = lines.join('');
  const leaked = [...credentials].filter((c) => inText(text, c));
  return { credentials: credentials.size, records: lines.length, leaked };
}

/** What the last newLeaks() call had seen: the log up to `checkedLines`, and the credentials then. */
let checkedLines = 0;
const checkedCredentials = new Set<string>();

/**
 * The credentials that reached the log since the last call (after each test: so the test that logged one is named): a
 * new line holding any credential, or a credential noted since in any line. A credential new since the last call is
 * looked for line by line, not in the whole log joined: a string grown by each test and searched again after each one
 * was copied whole each time (2026-11-26, test/acceptance and test/auth in one process: 68 CPU-s before, 52 after).
 */
export function newLeaks(): string[] {
  const added = lines.slice(checkedLines).join('');
  const earlier = checkedLines;
  checkedLines = lines.length;
  const inEarlier = (c: string) => {
    for (let i = 0; i < earlier; i++) if (inText(lines[i]!, c)) return true;
    return false;
  };
  const leaked: string[] = [];
  for (const c of credentials) {
    if (inText(added, c) || (!checkedCredentials.has(c) && inEarlier(c))) leaked.push(c);
    checkedCredentials.add(c);
  }
  return leaked;
}

/** Empties the log and the credentials (after each test file, checked: a worker runs many files). */
export function forgetLog(): void {
  lines.length = 0;
  credentials.clear();
  checkedLines = 0;
  checkedCredentials.clear();
}
