// The bad-input run's requests: case i of a seed, by category (valid Token creates among them, for concurrent writes).
import { basic, bytes, form, latin1, multipart, oddName, rawUtf8, snippetCode } from './bad-input-text';
import { listFilters } from './bad-input-filters';
import { oidcPaths, personalTokenEndpoints, personalTokenHeaders } from './bad-input-signin';
import type { Rng } from './prng';
import type { Case, CaseContext, Make } from './bad-input-case';
import type { RawRequest } from './raw-request';

export type { Case, CaseContext, Make } from './bad-input-case';

const JSON_TYPE = { 'content-type': 'application/json' };
/**
 * The snippet that authenticated updates aim at, made for them before the run and left out of its accounting: an
 * update that succeeds must not change a snippet whose code the run checks. The runner puts its id in.
 */
export const TARGET = '/snippets/{target}/';
/** Past the service's 1.5 MiB body limit. */
const OVERSIZED = 1536 * 1024 + 64 * 1024;
const DEPTH = 100000;
const ODD_METHODS = [
  'PATCH',
  'PROPFIND',
  'PROPPATCH',
  'TRACE',
  'MKCOL',
  'LOCK',
  'UNLOCK',
  'SEARCH',
  'PURGE',
  'COPY',
  'MOVE',
  'REPORT',
  'OPTIONS',
  'HEAD',
  'BREW',
  'M-SEARCH',
];
const PATHS = [
  '/snippets/',
  '/snippets/1/',
  '/users/',
  '/',
  '/api-token-auth/',
  '/oauth2/access_token/',
  '/api-auth/login/',
  '/trpc/snippets.list',
];

/** The write a path takes, so that the body is read rather than refused with 405. */
const writeMethod = (path: string) => (path === TARGET ? 'PUT' : 'POST');

const token = (ctx: CaseContext) => ({ authorization: `Token ${ctx.token}` });

const create: Make = (rng, ctx, tag) => {
  const code = snippetCode(rng, tag);
  const fields = { title: `bad-input ${tag}`, code };
  switch (rng.int(0, 4)) {
    case 0:
      return {
        label: 'form create',
        code,
        req: { method: 'POST', path: '/snippets/', ...merge(form(fields), token(ctx)) },
      };
    case 1:
      return {
        label: 'multipart create',
        code,
        req: { method: 'POST', path: '/snippets/', ...merge(multipart(fields), token(ctx)) },
      };
    case 2:
      return {
        label: 'tRPC create',
        code,
        req: {
          method: 'POST',
          path: '/trpc/snippets.create',
          headers: { ...JSON_TYPE, ...token(ctx) },
          body: JSON.stringify(fields),
        },
      };
    default:
      return {
        label: 'JSON create',
        code,
        req: {
          method: 'POST',
          path: '/snippets/',
          headers: { ...JSON_TYPE, ...token(ctx) },
          body: JSON.stringify({ ...fields, language: rng.pick(['python', 'js', 'text', 'rust']) }),
        },
      };
  }
};

function merge(
  body: { headers: Record<string, string>; body: string | Buffer },
  headers: Record<string, string>,
): Pick<RawRequest, 'headers' | 'body'> {
  return { headers: { ...body.headers, ...headers }, body: body.body };
}

const malformedJson: Make = (rng, ctx, tag) => {
  const bodies: [string, () => string | Buffer][] = [
    ['unclosed object', () => '{"code": "x"'],
    ['trailing comma', () => '{"code": "x",}'],
    ['single quotes', () => "{'code': 'x'}"],
    ['bare word', () => 'nul'],
    ['empty', () => ''],
    ['array', () => '["code", "x"]'],
    ['number overflow', () => '{"code": 1e999}'],
    ['lone surrogate', () => `{"code": "\\ud800 ${tag}"}`],
    ['code null', () => '{"code": null}'],
    ['code object', () => '{"code": {"a": 1}}'],
    ['code list', () => '{"code": ["x"]}'],
    ['bad language', () => `{"code": "x ${tag}", "language": "${'z'.repeat(rng.int(1, 3000))}"}`],
    ['bad linenos', () => `{"code": "x ${tag}", "linenos": "maybe"}`],
    ['long title', () => JSON.stringify({ code: `x ${tag}`, title: 't'.repeat(rng.int(101, 5000)) })],
    ['__proto__', () => `{"__proto__": {"owner": "root"}, "constructor": {"prototype": {}}, "code": "proto ${tag}"}`],
    ['read-only fields', () => JSON.stringify({ id: 1, owner: 'root', code: `owner ${tag}` })],
    ['BOM', () => `\ufeff{"code": "bom ${tag}"}`],
    [
      'invalid UTF-8',
      () => Buffer.concat([Buffer.from('{"code": "'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]),
    ],
    ['random bytes', () => bytes(rng, rng.int(1, 4000))],
    [
      '50,000 keys',
      () => `{${Array.from({ length: 50000 }, (_, i) => `"k${i}":${i}`).join(',')},"code":"keys ${tag}"}`,
    ],
    ['escaped NULs', () => `{"code": "${'\\u0000'.repeat(rng.int(1, 50000))}"}`],
  ];
  const [label, body] = rng.pick(bodies);
  const path = rng.pick(['/snippets/', '/snippets/', '/trpc/snippets.create', '/api-token-auth/']);
  return {
    label: `${label} → ${path}`,
    req: { method: 'POST', path, headers: { ...JSON_TYPE, ...token(ctx) }, body: body() },
  };
};

const nestedJson: Make = (rng, ctx) => {
  const depth = rng.int(DEPTH / 10, DEPTH);
  const bodies: [string, () => string][] = [
    ['unclosed [', () => '['.repeat(depth)],
    ['closed []', () => '['.repeat(depth) + ']'.repeat(depth)],
    ['nested code', () => '{"code":'.repeat(depth) + '"x"' + '}'.repeat(depth)],
    ['code in nesting', () => `{"code": ${'['.repeat(depth)}${']'.repeat(depth)}}`],
  ];
  const [label, body] = rng.pick(bodies);
  const path = rng.pick(['/snippets/', '/trpc/snippets.create', '/api-token-auth/', '/oauth2/access_token/', TARGET]);
  return {
    label: `${label} ×${depth} → ${path}`,
    req: { method: writeMethod(path), path, headers: { ...JSON_TYPE, ...token(ctx) }, body: body() },
  };
};

const contentType: Make = (rng, ctx, tag) => {
  const json = JSON.stringify({ code: `ctype ${tag}` });
  const variants: [string, Record<string, string>, string | Buffer][] = [
    ['text/plain', { 'content-type': 'text/plain' }, json],
    ['xml', { 'content-type': 'application/xml' }, `<code>${tag}</code>`],
    ['none', {}, json],
    ['json utf-16', { 'content-type': 'application/json; charset=utf-16' }, Buffer.from(json, 'utf16le')],
    ['multipart without boundary', { 'content-type': 'multipart/form-data' }, json],
    ['multipart, JSON body', { 'content-type': 'multipart/form-data; boundary=x' }, json],
    ['form with bad escapes', { 'content-type': 'application/x-www-form-urlencoded' }, '%zz&&==&code=%ff%fe&code'],
    ['form with JSON', { 'content-type': 'application/x-www-form-urlencoded' }, json],
    ['json with form', JSON_TYPE, `code=${tag}`],
    ['long type', { 'content-type': `application/${'x'.repeat(rng.int(100, 4000))}` }, json],
    ['type params', { 'content-type': 'application/json; charset="; boundary=;;;' }, json],
  ];
  const [label, headers, body] = rng.pick(variants);
  const path = rng.pick(['/snippets/', TARGET, '/api-token-auth/', '/oauth2/access_token/']);
  return {
    label: `${label} → ${path}`,
    req: { method: writeMethod(path), path, headers: { ...headers, ...token(ctx) }, body },
  };
};

const headers: Make = (rng) => {
  const variants: [string, () => Record<string, string | string[]>][] = [
    ['300 headers', () => Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`x-bench-${i}`, latin1(rng, 20)]))],
    ['15 KB header', () => ({ 'x-big': 'v'.repeat(15 * 1024) })],
    ['20 KB header', () => ({ 'x-big': 'v'.repeat(20 * 1024) })],
    ['Latin-1 bytes', () => ({ 'x-odd': latin1(rng, rng.int(1, 2000)), 'accept-language': latin1(rng, 40) })],
    [
      'odd Accept',
      () => ({
        accept: rng.pick([
          'text/html;q=x, */*;q=1.5',
          'application/json;;;',
          '*/*, '.repeat(1000),
          'text/*;level=9999999999999999999',
          '',
          '*',
        ]),
      }),
    ],
    ['long If-None-Match', () => ({ 'if-none-match': Array.from({ length: 800 }, (_, i) => `"etag${i}"`).join(', ') })],
    [
      'garbage session cookie',
      () => ({
        cookie: rng.pick([
          `sessionid=${latin1(rng, 60)}`,
          'sessionid=s%3Aabc.def',
          `sessionid=${'a'.repeat(4000)}`,
          ';;;===;',
          'sessionid=; sessionid=x',
        ]),
      }),
    ],
    ['many cookies', () => ({ cookie: Array.from({ length: 500 }, (_, i) => `c${i}=${i}`).join('; ') })],
    [
      'X-Forwarded-For',
      () => ({
        'x-forwarded-for': rng.pick([
          latin1(rng, 100),
          Array.from({ length: 1000 }, () => '10.0.0.1').join(', '),
          '::ffff:999.1.1.1',
        ]),
      }),
    ],
    [
      'odd Host',
      () => ({ host: rng.pick(['', 'evil.example:99999', 'h'.repeat(4000), '[::1', '127.0.0.1:18704, evil']) }),
    ],
    ['Range', () => ({ range: rng.pick(['bytes=0-0', 'bytes=99999999-', 'bytes=-1,-2,-3', 'pages=1']) })],
    ['emoji bytes', () => ({ 'x-emoji': rawUtf8('🐍'.repeat(rng.int(1, 1000))) })],
    ['duplicated Authorization', () => ({ authorization: ['Token a', 'Token b'] })],
  ];
  const [label, h] = rng.pick(variants);
  return { label, req: { method: rng.pick(['GET', 'GET', 'POST', 'OPTIONS']), path: rng.pick(PATHS), headers: h() } };
};

const basicNames: Make = (rng, ctx) => {
  const name = oddName(rng, ctx.username);
  const variants: [string, string][] = [
    ['odd name', basic(name, ctx.password)],
    ['odd name, odd password', basic(name, oddName(rng, 'pw'))],
    ['real name, wrong password', basic(ctx.username, `wrong${rng.int(0, 1e6)}`)],
    ['no colon', `Basic ${Buffer.from(name).toString('base64')}`],
    ['not base64', `Basic ${latin1(rng, 40)}`],
    ['empty', 'Basic '],
    ['lowercase scheme', `basic ${Buffer.from(`${name}:x`).toString('base64')}`],
    ['invalid UTF-8', `Basic ${Buffer.concat([Buffer.from([0xff, 0xfe, 0x3a]), Buffer.from('x')]).toString('base64')}`],
  ];
  const [label, authorization] = rng.pick(variants);
  const post = rng.chance(0.5);
  return {
    label: `Basic ${label} (${[...name].length} chars)`,
    req: {
      method: post ? 'POST' : 'GET',
      path: '/snippets/',
      headers: { authorization, ...JSON_TYPE },
      body: post ? JSON.stringify({ code: 'basic' }) : undefined,
    },
  };
};

/** A user name for a label: never the name itself, which differs from run to run. */
function describe(username: unknown): string {
  if (typeof username === 'string') return `${[...username].length}-char name`;
  return `name ${Array.isArray(username) ? 'list' : username === null ? 'null' : typeof username}`;
}

const tokenEndpoint: Make = (rng, ctx) => {
  const username: unknown = rng.pick([
    oddName(rng, ctx.username),
    oddName(rng, ctx.username),
    123,
    [ctx.username],
    { a: 1 },
    null,
    '',
  ]);
  const password: unknown = rng.pick([ctx.password + 'x', oddName(rng, 'pw'), 'p'.repeat(rng.int(1, 100000)), 0]);
  const enc = rng.int(0, 2);
  const body =
    enc === 0
      ? { headers: JSON_TYPE, body: JSON.stringify({ username, password }) }
      : (enc === 1 ? form : multipart)({ username: String(username), password: String(password) });
  return {
    label: `token endpoint, ${['JSON', 'form', 'multipart'][enc]}, ${describe(username)}`,
    req: { method: 'POST', path: '/api-token-auth/', ...body },
  };
};

const oauth2: Make = (rng, ctx) => {
  const fields: Record<string, string> = {
    grant_type: 'password',
    client_id: ctx.clientId,
    client_secret: ctx.clientSecret,
    username: oddName(rng, ctx.username),
    password: ctx.password,
  };
  let label = `password grant, ${[...fields.username!].length}-char name`;
  const headers: Record<string, string> = {};
  switch (rng.int(0, 5)) {
    case 0:
      fields.client_secret = 'wrong';
      label = 'wrong client secret';
      break;
    case 1:
      delete fields.client_id;
      delete fields.client_secret;
      headers.authorization = basic(oddName(rng, ctx.clientId), ctx.clientSecret);
      label = 'client in Basic, odd id';
      break;
    case 2:
      fields.grant_type = rng.pick(['refresh_token', 'client_credentials', 'authorization_code', '', latin1(rng, 30)]);
      fields.refresh_token = latin1(rng, 40);
      label = `grant ${fields.grant_type.length > 20 ? 'odd' : fields.grant_type || 'empty'}`;
      break;
    case 3:
      fields.password = ctx.password + 'x';
      label = 'wrong password';
      break;
  }
  const body = rng.chance(0.8) ? form(fields) : { headers: JSON_TYPE, body: JSON.stringify(fields) };
  return {
    label,
    req: {
      method: 'POST',
      path: rng.pick(['/oauth2/access_token/', '/oauth2/access_token']),
      headers: { ...body.headers, ...headers },
      body: body.body,
    },
  };
};

const badTokens: Make = (rng) => {
  const authorization = rng.pick([
    'Token xxx',
    'Token',
    'Token a b c',
    `Token ${'x'.repeat(rng.int(100, 8000))}`,
    `Token ${latin1(rng, 40)}`,
    'Bearer xxx',
    `Bearer ${'y'.repeat(rng.int(100, 8000))}`,
    'Bearer',
    `Bearer ${rawUtf8('🐍🐍')}`,
    'OAuth garbage',
    'OAuth oauth_consumer_key="x", oauth_signature="y", oauth_signature_method="HMAC-SHA1", oauth_nonce="n", oauth_timestamp="1"',
    'Digest username="x"',
    'Negotiate abc',
  ]);
  const post = rng.chance(0.5);
  return {
    label: authorization.length > 40 ? `${authorization.slice(0, 12)}… (${authorization.length})` : authorization,
    req: {
      method: post ? 'POST' : 'GET',
      path: rng.pick(['/snippets/', '/snippets/1/', '/trpc/snippets.list', '/users/']),
      headers: { authorization, ...JSON_TYPE },
      body: post ? '{"code":"x"}' : undefined,
    },
  };
};

const methods: Make = (rng) => {
  const method = rng.pick(ODD_METHODS);
  const path = rng.pick(PATHS);
  // No credentials: an odd method that a route took for PUT or DELETE must not touch the run's own snippets.
  return {
    label: `${method} ${path}`,
    req: { method, path, headers: JSON_TYPE, body: rng.chance(0.5) ? '{"code":"x"}' : undefined },
  };
};

const oversized: Make = (rng, ctx, tag) => {
  if (rng.chance(0.15)) {
    // Just inside the limit: 100,000 non-BMP characters, each written as two \u escapes, is the largest valid create.
    const code = `# ${tag}\n${'🐍'.repeat(99990)}`;
    const body = JSON.stringify({ code }).replace(/🐍/g, '\\ud83d\\udc0d');
    return {
      label: `largest valid create (${(body.length / 1048576).toFixed(2)} MiB)`,
      code,
      req: { method: 'POST', path: '/snippets/', headers: { ...JSON_TYPE, ...token(ctx) }, body },
    };
  }
  const big = 'x'.repeat(OVERSIZED + rng.int(0, 512 * 1024));
  const variants: [string, () => Pick<RawRequest, 'headers' | 'body'>][] = [
    ['JSON', () => ({ headers: JSON_TYPE, body: JSON.stringify({ code: big }) })],
    ['form', () => form({ code: big })],
    ['multipart', () => multipart({ code: big })],
    [
      'chunked',
      () => ({ headers: { ...JSON_TYPE, 'transfer-encoding': 'chunked' }, body: JSON.stringify({ code: big }) }),
    ],
  ];
  const [label, make] = rng.pick(variants);
  const body = make();
  const path = rng.pick([
    '/snippets/',
    '/snippets/',
    TARGET,
    '/api-token-auth/',
    '/oauth2/access_token/',
    '/trpc/snippets.create',
  ]);
  return {
    label: `oversized ${label} → ${path}`,
    req: {
      method: writeMethod(path),
      path,
      headers: { ...body.headers, ...(rng.chance(0.8) ? token(ctx) : {}) },
      body: body.body,
    },
  };
};

const paths: Make = (rng) => {
  const path = rng.pick([
    '/snippets/abc/',
    '/snippets/0/',
    '/snippets/-1/',
    '/snippets/99999999999999999999999999/',
    '/snippets/1.5/',
    '/snippets//',
    '/snippets/%00/',
    '/snippets/%zz/',
    '/snippets/%F0%9F%90%8D/',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/static/../../package.json',
    '/static/%2e%2e%2f%2e%2e%2fpackage.json',
    `/${'a'.repeat(rng.int(1000, 8000))}`,
    '/snippets/?limit=abc',
    '/snippets/?limit=-5',
    '/snippets/?limit=100000',
    `/snippets/?cursor=${latin1(rng, 20).replace(/[^\x21-\x7e]/g, '%ff')}`,
    '/snippets/?cursor=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA&limit=2',
    '/snippets/?format=xml',
    '/snippets/1/?format=api',
    `/snippets/?${'a[b]'.repeat(2000)}=1`,
    `/snippets/?${Array.from({ length: 2000 }, (_, i) => `p${i}=${i}`).join('&')}`,
    '/users/abc/',
    '/trpc/nope',
    '/trpc/snippets.get?input=garbage',
    `/trpc/snippets.get?input=${encodeURIComponent('{"id":"x"}')}`,
    `/trpc/snippets.get,snippets.get?batch=1&input=${encodeURIComponent('{"0":{"id":1},"1":{"id":-1}}')}`,
    '/snippets/1/highlight/',
    '/snippets/1/raw/',
    '/api-auth/login/?next=//evil.example',
    '/api-auth/logout/?next=/%0d%0aSet-Cookie:x=y',
    '/openapi.json?x=%',
    '/docs/../openapi.json',
  ]);
  return {
    label: path.length > 60 ? `${path.slice(0, 30)}… (${path.length})` : path,
    req: { method: rng.pick(['GET', 'GET', 'HEAD']), path },
  };
};

const loginForm: Make = (rng, ctx) => {
  const withCsrf = rng.chance(0.7);
  const fields = {
    username: oddName(rng, ctx.username),
    password: rng.pick([ctx.password + 'x', oddName(rng, 'pw')]),
    csrfmiddlewaretoken: withCsrf ? ctx.csrf : latin1(rng, 20),
    next: rng.pick(['/', '//evil.example', 'https://evil.example/', '/\\evil']),
  };
  const body = rng.chance(0.8) ? form(fields) : multipart(fields);
  return {
    label: `login form${withCsrf ? '' : ', bad CSRF'}, ${[...fields.username].length}-char name`,
    req: {
      method: 'POST',
      path: '/api-auth/login/',
      headers: { ...body.headers, cookie: ctx.loginCookie },
      body: body.body,
    },
  };
};

/** A snippet's history (docs/api.md "History"): odd revision numbers, cursors and `from`s, and odd If-Match on the writes. */
const history: Make = (rng, ctx) => {
  const revisions = `${TARGET}revisions/`;
  if (rng.chance(0.5)) {
    const path = rng.pick([
      `${revisions}?limit=abc`,
      `${revisions}?limit=0`,
      `${revisions}?cursor=${latin1(rng, 20).replace(/[^\x21-\x7e]/g, '%ff')}`,
      `${revisions}?cursor=99999999999999999999`,
      `${revisions}abc/`,
      `${revisions}0/`,
      `${revisions}-1/`,
      `${revisions}99999999999999999999999/`,
      `${revisions}1/diff/?from=abc`,
      `${revisions}1/diff/?from=-1`,
      `${revisions}1/diff/?from=1.5`,
      `${revisions}1/diff/?from=99999999999999999999`,
      `${revisions}2/diff/?from=${'9'.repeat(rng.int(1, 400))}`,
      `${revisions}1/diff/?format=api`,
      `${revisions}1/diff/?format=xml`,
      '/snippets/99999999/revisions/',
      '/snippets/99999999/revisions/1/diff/',
      `/trpc/snippets.diff?input=${encodeURIComponent('{"id":"x","n":[1]}')}`,
      // The saved times of a list's rows (GET /snippets/saved/?ids=): odd lists, too many, too long.
      '/snippets/saved/?ids=',
      '/snippets/saved/?ids=1,,2',
      '/snippets/saved/?ids=-1',
      `/snippets/saved/?ids=${'9'.repeat(rng.int(10, 400))}`,
      `/snippets/saved/?ids=${Array.from({ length: rng.int(999, 1200) }, (_, i) => i + 1).join(',')}`,
      `/snippets/saved/?ids=1&ids=2`,
      `/trpc/snippets.savedTimes?input=${encodeURIComponent('{"ids":[1,2]}')}`,
    ]);
    const accept = rng.pick([undefined, 'text/x-diff', 'image/png', 'text/html', '*/*;q=0']);
    return {
      label: `GET ${path.slice(0, 60)}${accept ? ` (Accept ${accept})` : ''}`,
      req: { method: rng.pick(['GET', 'HEAD']), path, headers: accept ? { accept } : ({} as Record<string, string>) },
    };
  }
  // Tags that never match (revisions count from 1; a weak tag never matches in If-Match), so the run's target stays.
  const ifMatch = rng.pick([
    '"0"',
    'W/"1"',
    '"',
    'garbage',
    latin1(rng, 40),
    Array.from({ length: 800 }, (_, i) => `W/"${i}"`).join(', '),
    `"${'9'.repeat(5000)}"`,
  ]);
  const write = rng.pick([
    { method: 'PUT', path: TARGET, body: JSON.stringify({ code: 'never saved' }) },
    { method: 'DELETE', path: TARGET, body: undefined },
    { method: 'POST', path: `${revisions}1/restore/`, body: undefined },
    { method: 'POST', path: `${revisions}abc/restore/`, body: undefined },
    { method: 'POST', path: `${revisions}999999/restore/`, body: '{"ifMatch":"*"}' },
    { method: 'POST', path: '/trpc/snippets.restore', body: JSON.stringify({ id: 'x', n: -1, ifMatch: 5 }) },
  ]);
  return {
    label: `${write.method} ${write.path} If-Match ${ifMatch.slice(0, 20)}`,
    req: {
      method: write.method,
      path: write.path,
      headers: { ...JSON_TYPE, ...token(ctx), 'if-match': ifMatch },
      body: write.body,
    },
  };
};

/** Categories and their share of the run (out of 100). */
const CATEGORIES: [string, number, Make][] = [
  ['valid create', 16, create],
  ['malformed JSON', 10, malformedJson],
  ['nested JSON', 5, nestedJson],
  ['content type', 8, contentType],
  ['headers', 10, headers],
  ['Basic names', 8, basicNames],
  ['token endpoint', 8, tokenEndpoint],
  ['OAuth 2.0 token', 7, oauth2],
  ['bad tokens', 8, badTokens],
  ['methods', 6, methods],
  ['oversized', 3, oversized],
  ['paths', 8, paths],
  ['list filters', 6, listFilters],
  ['login form', 3, loginForm],
  ['history', 6, history],
  ['personal tokens', 5, personalTokenEndpoints],
  ['OIDC', 4, oidcPaths],
  ['snp_ headers', 5, personalTokenHeaders],
];

export function makeCase(rng: Rng, ctx: CaseContext, tag: string): Case {
  let roll = rng.next() * CATEGORIES.reduce((n, [, w]) => n + w, 0);
  for (const [category, weight, make] of CATEGORIES) {
    if ((roll -= weight) < 0) return { category, ...make(rng, ctx, tag) };
  }
  const [category, , make] = CATEGORIES[0]!;
  return { category, ...make(rng, ctx, tag) };
}
