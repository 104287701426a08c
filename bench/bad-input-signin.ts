// The bad-input cases of issue 30's sign-in: the personal access token endpoints (/tokens/ and their /trpc
// procedures), the OpenID Connect login and callback, and `Token snp_…` / `Bearer snp_…` headers. The run's own
// personal access token (read scope) and a real flow cookie (bench/bad-input.ts) let cases get past the first check.
import { basic, latin1, rawUtf8 } from './bad-input-text';
import type { Rng } from './prng';
import type { Make } from './bad-input-case';

const JSON_TYPE = { 'content-type': 'application/json' };

/** Ids no token has (a real one would revoke the run's own key). */
const BAD_IDS = ['0', '-1', 'abc', '1.5', '99999999999999999999999', '%00', '%F0%9F%90%8D', 'x'.repeat(3000), ''];

function tokenBody(rng: Rng): string {
  const name = rng.pick([
    '',
    ' ',
    'n'.repeat(rng.int(101, 20000)),
    '🐍'.repeat(rng.int(1, 200)),
    'ok',
    latin1(rng, 30),
  ]);
  const scopes = rng.pick<unknown>([
    ['read'],
    [],
    ['admin'],
    'read write',
    'read,,write,',
    ['read', 'read', 'read', 'read', 'read'],
    'x'.repeat(5000),
    [1, null],
    { read: true },
    null,
  ]);
  const expires = rng.pick<unknown>([
    undefined,
    0,
    59,
    -1,
    1.5,
    '86400',
    ' 86400 ',
    '1e9',
    1e308,
    '9'.repeat(400),
    Number.MAX_SAFE_INTEGER + 2,
    'soon',
    null,
    [3600],
  ]);
  switch (rng.int(0, 3)) {
    case 0:
      return JSON.stringify({ name, scopes, expires_in: expires });
    case 1:
      return `{"name": "x", "scopes": ["read"], "expires_in": ${rng.pick(['1e999', '-0', '0x10', 'NaN', '"\\ud800"'])}}`;
    case 2:
      return rng.pick(['', '[]', 'null', '{"name":', '"read"']);
    default:
      return JSON.stringify({ name: 'bench', scopes: ['write'], expires_in: 86400 * rng.int(366, 100000) });
  }
}

/** GET/POST /tokens/ and DELETE /tokens/<id>/ (REST and /trpc), with the run's password, its token, or none. */
export const personalTokenEndpoints: Make = (rng, ctx) => {
  const who = rng.pick<[string, Record<string, string>]>([
    ['Basic', { authorization: basic(ctx.username, ctx.password) }],
    ['Basic', { authorization: basic(ctx.username, ctx.password) }],
    ['read token', { authorization: `Token ${ctx.personalKey}` }],
    ['API token', { authorization: `Token ${ctx.token}` }],
    ['anonymous', {}],
  ]);
  const kind = rng.int(0, 5);
  if (kind === 0) {
    const path = rng.pick(['/tokens/', '/tokens/?format=api', '/tokens/?limit=-1', '/tokens', '/trpc/tokens.list']);
    return {
      label: `GET ${path} (${who[0]})`,
      req: { method: rng.pick(['GET', 'HEAD']), path, headers: { ...who[1], accept: rng.pick(['*/*', 'text/html']) } },
    };
  }
  if (kind <= 2) {
    const trpc = rng.chance(0.3);
    const body = tokenBody(rng);
    const form = !trpc && rng.chance(0.2);
    return {
      label: `POST ${trpc ? '/trpc/tokens.create' : '/tokens/'}${form ? ' as form' : ''} (${who[0]}, ${body.length} B)`,
      req: {
        method: 'POST',
        path: trpc ? '/trpc/tokens.create' : '/tokens/',
        headers: {
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : JSON_TYPE),
          ...who[1],
        },
        body: form ? `name=${encodeURIComponent(body.slice(0, 50))}&scopes=read&scopes=%ff&expires_in=x` : body,
      },
    };
  }
  if (kind <= 4) {
    const id = rng.pick(BAD_IDS);
    return {
      label: `DELETE /tokens/${id.slice(0, 20)}/ (${who[0]})`,
      req: { method: rng.pick(['DELETE', 'DELETE', 'PUT', 'PATCH']), path: `/tokens/${id}/`, headers: who[1] },
    };
  }
  const input = rng.pick(['{"id":"x"}', '{"id":-1}', '{"id":1e999}', '{}', 'garbage', '{"id":[1]}']);
  return {
    label: `POST /trpc/tokens.revoke ${input} (${who[0]})`,
    req: { method: 'POST', path: '/trpc/tokens.revoke', headers: { ...JSON_TYPE, ...who[1] }, body: input },
  };
};

const CALLBACK = '/api-auth/oidc/callback/';

/** The OpenID Connect login and callback: odd `next`, bad or repeated state and code, with and without a real flow. */
export const oidcPaths: Make = (rng, ctx) => {
  if (rng.chance(0.25)) {
    const next = rng.pick([
      '/snippets/',
      '//evil.example',
      'https://evil.example/',
      '/\\evil',
      `/${'n'.repeat(rng.int(1000, 6000))}`,
      '%zz',
      '/%0d%0aSet-Cookie:x=y',
    ]);
    const query = rng.chance(0.2)
      ? `next=/a&next=/b&next=${encodeURIComponent(next)}`
      : `next=${encodeURIComponent(next)}`;
    return {
      label: `login, next ${next.slice(0, 20)}`,
      req: { method: 'GET', path: `/api-auth/oidc/login/?${query}` },
    };
  }
  const query = rng.pick([
    '',
    'code=abc',
    'state=abc',
    'code=abc&state=abc',
    'code=&state=',
    'state=a&state=b&code=c&code=d',
    'error=access_denied&state=abc',
    'error=access_denied&error_description=%ff%fe',
    `code=${'c'.repeat(rng.int(1000, 7000))}&state=x`,
    'code=%zz&state=%00',
    `code=${encodeURIComponent(rawUtf8('🐍'))}&state=${encodeURIComponent(latin1(rng, 20))}`,
    'iss=https%3A%2F%2Fevil.example&code=a&state=b',
    'response=garbage.jwt.here',
    `${Array.from({ length: 500 }, (_, i) => `p${i}=${i}`).join('&')}`,
  ]);
  const cookie = rng.pick([
    ['real flow', `oidc_flow=${ctx.oidcFlow}`],
    ['real flow', `oidc_flow=${ctx.oidcFlow}`],
    ['no flow', ''],
    ['altered flow', `oidc_flow=${ctx.oidcFlow.slice(0, -3)}abc`],
    ['garbage flow', `oidc_flow=${latin1(rng, 80)}`],
    ['two flows', `oidc_flow=a.b; oidc_flow=${ctx.oidcFlow}`],
  ]);
  return {
    label: `callback ?${query.slice(0, 30)} (${cookie[0]})`,
    req: {
      method: rng.pick(['GET', 'GET', 'POST', 'HEAD']),
      path: `${CALLBACK}${query ? `?${query}` : ''}`,
      headers: cookie[1] ? { cookie: cookie[1] } : ({} as Record<string, string>),
    },
  };
};

/** `Token snp_…` and `Bearer snp_…`: the run's read key on reads and writes, altered, truncated, overlong, unicode. */
export const personalTokenHeaders: Make = (rng, ctx) => {
  const key = ctx.personalKey;
  const value = rng.pick([
    key,
    key,
    `${key}x`,
    key.slice(0, -1),
    key.toUpperCase(),
    'snp_',
    `snp_${'A'.repeat(rng.int(44, 8000))}`,
    `snp_${rawUtf8('🐍'.repeat(11))}`,
    `snp_${latin1(rng, 43)}`,
    `${key} ${key}`,
    `snp_${'%00'.repeat(15)}`,
  ]);
  const scheme = rng.pick(['Token', 'Bearer', 'token', 'bearer']);
  const write = rng.pick([
    { method: 'POST', path: '/snippets/', body: '{"code":"personal token"}' },
    { method: 'POST', path: '/trpc/snippets.create', body: '{"code":"personal token"}' },
    { method: 'DELETE', path: '/snippets/1/', body: undefined },
    { method: 'GET', path: '/snippets/', body: undefined },
    { method: 'GET', path: '/trpc/snippets.list', body: undefined },
    { method: 'GET', path: '/users/', body: undefined },
    { method: 'GET', path: '/tokens/', body: undefined },
  ]);
  const shown = value === key ? 'the read key' : value.length > 30 ? `snp_… (${value.length})` : 'an altered key';
  return {
    label: `${scheme} ${shown} → ${write.method} ${write.path}`,
    req: {
      method: write.method,
      path: write.path,
      headers: { ...JSON_TYPE, authorization: `${scheme} ${value}` },
      body: write.body,
    },
  };
};
