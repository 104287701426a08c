// The document covers every path and method the app serves, each documented operation answers as documented, and the
// document keeps the lint rules a reader of it relies on (unique operation ids, summaries, declared tags, no dangling
// or unused components).
import { compileErrors, validate } from '@readme/openapi-parser';
import { expect } from 'chai';
import type { OpenAPIObject, OperationObject, ReferenceObject, ResponseObject } from 'openapi3-ts/oas31';
import { createApp } from '../../server/app';
import { routesOf } from '../../server/rest/routes';
import { appRouter } from '../../src/routers';
import { createClient } from '../../src/auth/oauth2';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic } from '../support/http';
import { fetchDocument } from './support';
import { testRuntime, testStore } from '../support/runtime';

const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

/**
 * What the app does not describe, and why: the tRPC endpoint (its wire format is tRPC's, typed by AppRouter) and the
 * static files of the pages and of /docs.
 */
const UNDESCRIBED = [
  /^\/trpc$/,
  /^\/static$/,
  /^\/favicon\.ico$/,
  /^\/docs\/assets\/\{name\}$/,
  // Pages for people (the paste and edit forms, the embed view other sites frame), not API operations.
  /^\/snippets\/new\/$/,
  /^\/snippets\/\{id\}\/edit\/$/,
  /^\/snippets\/\{id\}\/embed\/$/,
];

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  rawPath?: string;
  slash?: boolean;
}

/** `METHOD path` of every route of the Express app: its route layers, the routers' routes, and the facade's table. */
function servedOperations(): string[] {
  const app = createApp(testRuntime()) as unknown as { router: { stack: Layer[] } };
  const served: string[] = [];
  const add = (path: string, methods: string[]) => {
    const documented = path.replace(/:(\w+)/g, (_, name: string) => `{${name === 'pk' ? 'id' : name}}`);
    for (const m of methods) served.push(`${m.toUpperCase()} ${documented}`);
  };
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const methods = Object.keys(layer.route.methods);
        // app.all('/') answers methods itself (the API root: GET, HEAD, OPTIONS); a router's .all() is its 405.
        const own =
          methods.length > 10 ? ['get'] : methods.filter((m) => m !== '_all' && m !== 'options' && m !== 'head');
        for (const path of ([] as string[]).concat(layer.route.path)) add(path, own);
      } else if (layer.handle.stack) {
        if (layer.slash === false && layer.rawPath) add(layer.rawPath, ['mounted']);
        else walk(layer.handle.stack);
      }
    }
  };
  walk(app.router.stack);
  // The REST facade is one middleware reading the routing table.
  for (const route of routesOf(appRouter)) add(route.template, Object.keys(route.procedures));
  return served.filter((op) => !UNDESCRIBED.some((re) => re.test(op.slice(op.indexOf(' ') + 1))));
}

function documentedOperations(doc: OpenAPIObject): string[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`),
  );
}

function operations(doc: OpenAPIObject): [string, OperationObject][] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((m) => (item[m] ? [[`${m.toUpperCase()} ${path}`, item[m]!] as [string, OperationObject]] : [])),
  );
}

/** Every `$ref` in a value. */
function refs(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refs);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [v] : refs(v)));
}

describe('the OpenAPI document and the routes the app serves', () => {
  let doc: OpenAPIObject;
  before(async () => {
    doc = await fetchDocument();
  });

  it('documents every path and method the app serves, and nothing else', () => {
    const served = servedOperations();
    expect(served).to.include.members([
      'GET /snippets/{id}/highlight/',
      'POST /api-token-auth/',
      'POST /oauth2/access_token/',
      'GET /healthz',
    ]);
    expect(documentedOperations(doc)).to.have.members(served);
  });

  it('follows the configured paths of the token endpoint and the login pages', async () => {
    const moved = await fetchDocument({
      AUTH_SCHEMES: ['basic'],
      TOKEN_AUTH_PATH: 'auth/token/',
      API_AUTH_PREFIX: 'accounts/',
    });
    expect(Object.keys(moved.paths ?? {})).to.include.members([
      '/auth/token/',
      '/accounts/login/',
      '/accounts/logout/',
    ]);
    expect(Object.keys(moved.paths ?? {})).not.to.include.members(['/api-token-auth/']);
    const result = await validate(structuredClone(moved) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).to.equal(true);
  });

  it('is valid with a scheme first that has no challenge, and with OAuth 1.0a', async () => {
    const other = await fetchDocument({
      AUTH_SCHEMES: ['session', 'oauth1', 'token'],
      TOKEN_AUTH_PATH: 'api-token-auth/',
      API_AUTH_PREFIX: 'api-auth/',
    });
    const result = await validate(structuredClone(other) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).to.equal(true);
    expect(result.warnings).to.deep.equal([]);
  });

  describe('lint', () => {
    it('gives every operation a unique operationId, a summary and declared tags', () => {
      const declared = (doc.tags ?? []).map((t) => t.name);
      const ids = operations(doc).map(([, op]) => op.operationId);
      expect(new Set(ids).size, 'unique operationIds').to.equal(ids.length);
      for (const [name, op] of operations(doc)) {
        expect(op.operationId, name).to.be.a('string');
        expect(op.summary, name).to.be.a('string').and.not.equal('');
        expect(op.tags, name).to.be.an('array').with.length.above(0);
        expect(declared, name).to.include.members(op.tags!);
      }
    });

    it('resolves every $ref and leaves no component unused', () => {
      const used = new Set(refs(doc));
      for (const ref of used) {
        const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
        expect(
          (doc.components as Record<string, Record<string, unknown>> | undefined)?.[section!]?.[name!],
          ref,
        ).to.not.equal(undefined);
      }
      // A path item cannot hold responses: the 405 every path answers is named in the path's description instead.
      const text = JSON.stringify(doc);
      for (const section of ['schemas', 'responses'] as const) {
        for (const name of Object.keys(doc.components?.[section] ?? {})) {
          const ref = `#/components/${section}/${name}`;
          expect(used.has(ref) || text.includes(`(${ref})`), `${ref} is used`).to.equal(true);
        }
      }
    });

    it('documents an error answer on every operation but the liveness probe', () => {
      for (const [name, op] of operations(doc)) {
        if (op.operationId === 'health-live') continue;
        const errors = Object.keys(op.responses ?? {}).filter((s) => /^[45]/.test(s));
        expect(errors, name).to.have.length.above(0);
      }
    });

    it('declares every path parameter on each of its operations', () => {
      for (const [name, op] of operations(doc)) {
        const inPath = [...name.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        const declared = (op.parameters ?? []).flatMap((p) => ('in' in p && p.in === 'path' ? [p.name] : []));
        expect(declared, name).to.have.members(inPath);
      }
    });
  });

  describe('the operations beside the routing table, called as documented', () => {
    let snippetId: number;
    before(async () => {
      await resetDatabase();
      await makeUser('alice');
      snippetId = (
        await api().post('/snippets/').set('Authorization', basic('alice')).send({ code: 'print("hi")\n' }).expect(201)
      ).body.id;
    });

    const documented = (path: string, method: 'get' | 'post', status: number): ResponseObject => {
      const r = doc.paths?.[path]?.[method]?.responses?.[status] as ResponseObject | ReferenceObject | undefined;
      expect(r, `${method.toUpperCase()} ${path} documents ${status}`).to.not.equal(undefined);
      return r as ResponseObject;
    };

    it('GET / answers the documented ApiRoot', async () => {
      documented('/', 'get', 200);
      const res = await api().get('/').expect(200);
      expect(res.body).to.have.keys((doc.components?.schemas?.ApiRoot as { required: string[] }).required);
    });

    it('the highlight and raw views answer the documented media types, and 404 for no such snippet', async () => {
      for (const [view, type] of [
        ['highlight', 'text/html'],
        ['raw', 'text/plain'],
      ] as const) {
        const path = `/snippets/{id}/${view}/`;
        expect(Object.keys(documented(path, 'get', 200).content ?? {})).to.deep.equal([type]);
        expect((await api().get(`/snippets/${snippetId}/${view}/`).expect(200)).headers['content-type']).to.match(
          new RegExp(`^${type}`),
        );
        documented(path, 'get', 404);
        await api().get(`/snippets/999999/${view}/`).expect(404);
      }
    });

    it('POST /api-token-auth/ answers the documented Token and 400 non_field_errors', async () => {
      documented('/api-token-auth/', 'post', 200);
      const res = await api().post('/api-token-auth/').send({ username: 'alice', password: 'alicepass' }).expect(200);
      expect(res.body).to.have.keys((doc.components?.schemas?.Token as { required: string[] }).required);
      documented('/api-token-auth/', 'post', 400);
      expect(
        (await api().post('/api-token-auth/').send({ username: 'alice', password: 'wrong' }).expect(400)).body,
      ).to.have.keys('non_field_errors');
    });

    it('POST /oauth2/access_token/ answers the documented OAuth2Token, 400 and 401', async () => {
      const client = await createClient(testStore(), 'docs-client', 'docs-id', 'docs-secret');
      const grant = {
        grant_type: 'password',
        username: 'alice',
        password: 'alicepass',
        client_id: client.clientId,
        client_secret: 'docs-secret',
      };
      for (const path of ['/oauth2/access_token/', '/oauth2/access_token']) {
        const ok = await api().post(path).type('form').send(grant).expect(200);
        expect(ok.body).to.include.keys((doc.components?.schemas?.OAuth2Token as { required: string[] }).required);
        documented(path, 'post', 400);
        expect(
          (
            await api()
              .post(path)
              .type('form')
              .send({ ...grant, password: 'wrong' })
              .expect(400)
          ).body,
        ).to.have.property('error', 'invalid_grant');
        expect(documented(path, 'post', 401).headers).to.have.property('WWW-Authenticate');
        await api()
          .post(path)
          .type('form')
          .send({ ...grant, client_secret: 'wrong' })
          .expect(401)
          .expect('WWW-Authenticate', /./);
      }
    });

    it('the login and logout pages answer their documented statuses', async () => {
      documented('/api-auth/login/', 'get', 200);
      const form = await api()
        .get('/api-auth/login/')
        .expect(200)
        .expect('Content-Type', /^text\/html/);
      documented('/api-auth/login/', 'post', 403);
      await api().post('/api-auth/login/').type('form').send({ username: 'alice', password: 'alicepass' }).expect(403);
      const cookie = form.headers['set-cookie'] as unknown as string[];
      const csrf = /csrftoken=([^;]+)/.exec(cookie.join(';'))![1]!;
      expect(documented('/api-auth/login/', 'post', 302).headers).to.have.property('Location');
      await api()
        .post('/api-auth/login/')
        .set('Cookie', cookie)
        .type('form')
        .send({ username: 'alice', password: 'alicepass', csrfmiddlewaretoken: csrf })
        .expect(302);
      documented('/api-auth/logout/', 'get', 200);
      await api().get('/api-auth/logout/').expect(200);
      documented('/api-auth/logout/', 'post', 302);
      await api().post('/api-auth/logout/').expect(302);
    });

    it('the probes, the document and the reference page answer 200', async () => {
      for (const path of ['/healthz', '/readyz', '/openapi.json', '/docs']) {
        documented(path, 'get', 200);
        await api().get(path).expect(200);
      }
    });
  });
});
