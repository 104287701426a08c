// OAuth 1.0a authentication (RFC 5849): HMAC-SHA1 signed requests of CLI-made consumers and tokens; no authorization flow.
import type { Runtime } from '../../src/runtime';
import { createHmac } from 'node:crypto';
import type { Request, Response } from 'express';
import { safeEqual } from '../../src/auth/digest';
import { credentialsFor, KEY_PATTERN, TIMESTAMP_WINDOW_SECONDS, useNonce } from '../../src/auth/oauth1';
import { bufferBody, mediaType } from '../http/body';
import { AuthenticationFailed, type Scheme } from './types';

export const OAUTH1_CHALLENGE = 'OAuth realm="api"';
const MAX_HEADER = 4096;
const REQUIRED = [
  'oauth_consumer_key',
  'oauth_token',
  'oauth_signature_method',
  'oauth_signature',
  'oauth_timestamp',
  'oauth_nonce',
] as const;
const MALFORMED = 'Invalid OAuth header.';

type Pair = [name: string, value: string];

/** RFC 5849 3.6: RFC 3986 percent-encoding, everything but the unreserved characters. */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The header's parameters (RFC 5849 3.5.1), percent-decoded; throws on anything malformed or repeated. */
export function parseOAuthHeader(header: string): Map<string, string> {
  if (header.length > MAX_HEADER) throw new AuthenticationFailed(MALFORMED);
  const rest = header.replace(/^\s*OAuth/i, '');
  if (!rest.trim()) throw new AuthenticationFailed('Invalid OAuth header. No credentials provided.');
  const params = new Map<string, string>();
  const param = /\s*([^\s=,"]+)\s*=\s*"([^"]*)"\s*(,|$)/y;
  while (param.lastIndex < rest.length) {
    const m = param.exec(rest);
    if (!m) throw new AuthenticationFailed(MALFORMED);
    let name: string, value: string;
    try {
      name = decodeURIComponent(m[1]!);
      value = decodeURIComponent(m[2]!);
    } catch {
      throw new AuthenticationFailed(`${MALFORMED} Bad percent-encoding.`);
    }
    if (params.has(name)) throw new AuthenticationFailed(`${MALFORMED} Duplicate parameter ${name}.`);
    params.set(name, value);
    if (m[3] === '') break;
  }
  return params;
}

/** RFC 5849 3.4.1.2: lower-case scheme and host, the port only when not the default, the path as sent, no query. */
function baseUri(req: Request): string {
  const scheme = req.protocol.toLowerCase();
  const host = (req.host ?? '').toLowerCase().replace(scheme === 'https' ? /:443$/ : /:80$/, '');
  return `${scheme}://${host}${req.originalUrl.split('?')[0]}`;
}

/** The form body's parameters (RFC 5849 3.4.1.3.1); the body stays buffered for the facade to parse later. */
async function bodyParams(req: Request, res: Response): Promise<Pair[]> {
  if (mediaType(req) !== 'application/x-www-form-urlencoded') return [];
  await bufferBody(req, res);
  return Buffer.isBuffer(req.body) ? [...new URLSearchParams(req.body.toString('utf8'))] : [];
}

/**
 * RFC 5849 3.4.1 and 3.4.2: the signature base string, signed with HMAC-SHA1. Written here over node:crypto rather
 * than taken from `oauth-sign` (unmaintained since 2018 with `request`; its second encoding pass uses `escape()`,
 * which turns the unreserved `~` into `%7E`, so a parameter with a tilde would not match conforming clients) or
 * `passport-http-oauth` (unmaintained since 2013). The tests sign with `oauth-1.0a`, an independent implementation.
 */
export function hmacSha1Signature(
  method: string,
  uri: string,
  params: Pair[],
  consumerSecret: string,
  tokenSecret: string,
): string {
  const normalized = params
    .map(([k, v]) => [percentEncode(k), percentEncode(v)])
    .sort(([ka, va], [kb, vb]) => (ka! < kb! ? -1 : ka! > kb! ? 1 : va! < vb! ? -1 : va! > vb! ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const base = [method.toUpperCase(), percentEncode(uri), percentEncode(normalized)].join('&');
  return createHmac('sha1', `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`)
    .update(base)
    .digest('base64');
}

/** The checks that need no database, in the order a client is best told about them. */
function checkProtocol(oauth: Map<string, string>, now: number, window: number): void {
  for (const name of REQUIRED)
    if (!oauth.get(name)) throw new AuthenticationFailed(`Missing OAuth parameter: ${name}.`);
  if (oauth.get('oauth_signature_method') !== 'HMAC-SHA1')
    throw new AuthenticationFailed('Unsupported signature method.');
  if (oauth.has('oauth_version') && oauth.get('oauth_version') !== '1.0')
    throw new AuthenticationFailed('Unsupported OAuth version.');
  const timestamp = oauth.get('oauth_timestamp')!;
  if (!/^\d{1,12}$/.test(timestamp)) throw new AuthenticationFailed('Invalid timestamp.');
  if (Math.abs(Number(timestamp) - Math.floor(now / 1000)) > window)
    throw new AuthenticationFailed('Timestamp out of range.');
  if (oauth.get('oauth_nonce')!.length > 64) throw new AuthenticationFailed('Invalid nonce.');
  if (!KEY_PATTERN.test(oauth.get('oauth_consumer_key')!)) throw new AuthenticationFailed('Invalid consumer key.');
  if (!KEY_PATTERN.test(oauth.get('oauth_token')!)) throw new AuthenticationFailed('Invalid access token.');
}

export function oauth1Scheme(
  { store, now }: Pick<Runtime, 'store' | 'now'>,
  timestampWindow = TIMESTAMP_WINDOW_SECONDS,
): Scheme {
  const window = timestampWindow;
  return {
    name: 'oauth1',
    challenge: OAUTH1_CHALLENGE,
    async authenticate(req: Request, res: Response) {
      const header = req.headers.authorization ?? '';
      if (!/^\s*OAuth(\s|$)/i.test(header)) return null;
      const oauth = parseOAuthHeader(header);
      checkProtocol(oauth, now(), window);
      const consumerKey = oauth.get('oauth_consumer_key')!;
      const tokenKey = oauth.get('oauth_token')!;
      const credentials = await credentialsFor(store, consumerKey, tokenKey);
      if (credentials === 'consumer') throw new AuthenticationFailed('Invalid consumer key.');
      if (credentials === 'token') throw new AuthenticationFailed('Invalid access token.');

      const query = req.originalUrl.includes('?')
        ? [...new URLSearchParams(req.originalUrl.slice(req.originalUrl.indexOf('?') + 1))]
        : [];
      const signed = [...oauth].filter(([name]) => name !== 'realm' && name !== 'oauth_signature');
      let expected: string;
      try {
        expected = hmacSha1Signature(
          req.method,
          baseUri(req),
          [...query, ...signed, ...(await bodyParams(req, res))],
          credentials.consumerSecret,
          credentials.tokenSecret,
        );
      } catch (err) {
        if (err instanceof URIError) throw new AuthenticationFailed('Invalid signature.'); // a lone surrogate cannot be encoded
        throw err;
      }
      if (!safeEqual(oauth.get('oauth_signature')!, expected)) throw new AuthenticationFailed('Invalid signature.');
      // Recorded only once the signature holds, so unsigned garbage cannot fill the log or burn a client's nonces.
      if (
        !(await useNonce(store, consumerKey, tokenKey, Number(oauth.get('oauth_timestamp')), oauth.get('oauth_nonce')!))
      ) {
        throw new AuthenticationFailed('Nonce already used.');
      }
      return { user: credentials.user, auth: { consumerKey, token: tokenKey } };
    },
  };
}
