// GET /openapi.json: a valid OpenAPI 3.1 document describing exactly the paths, methods and statuses the REST facade serves.
import { compileErrors, validate } from '@readme/openapi-parser';
import { expect } from 'chai';
import type { OpenAPIObject, ParameterObject, ResponseObject, SecuritySchemeObject } from 'openapi3-ts/oas31';
import supertest from 'supertest';
import { appRouter } from '../../src/routers';
import { allowedMethods, routesOf } from '../../server/rest/routes';

const ROUTES = routesOf(appRouter);
import { fetchDocument, openapiApp, operation, response, statuses, type HttpMethod } from './support';

const SUCCESS: Record<string, number> = { GET: 200, POST: 201, PUT: 200, DELETE: 204 };
const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];

/** A documented path with example values: `{id}` stands for the route's `<pk>`, `{n}` for a revision number. */
const example = (path: string) => path.replace('{id}', '42').replace('{n}', '1');

/** The documented path a route serves. */
function documentedPath(doc: OpenAPIObject, pattern: RegExp): string {
  const paths = Object.keys(doc.paths ?? {}).filter((p) => pattern.test(example(p)));
  expect(paths, `documented paths for ${pattern}`).to.have.length(1);
  return paths[0]!;
}

describe('GET /openapi.json', () => {
  let doc: OpenAPIObject;
  before(async () => {
    doc = await fetchDocument();
  });

  it('responds 200 application/json, the same bytes each time (built once)', async () => {
    const first = await supertest(openapiApp()).get('/openapi.json').expect(200);
    expect(first.headers['content-type']).to.match(/^application\/json/);
    const app = openapiApp();
    const [a, b] = [await supertest(app).get('/openapi.json'), await supertest(app).get('/openapi.json')];
    expect(a.text).to.equal(b.text);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).to.match(/^3\.1\./);
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).to.equal(true);
    expect(result.warnings).to.deep.equal([]);
  });

  it('has one relative server, so paths resolve against the origin it was fetched from', () => {
    expect(doc.servers).to.deep.equal([{ url: '/' }]);
  });

  describe('paths', () => {
    for (const route of ROUTES) {
      const methods = allowedMethods(route).filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
      for (const method of methods) {
        const success = route.procedures[method as keyof typeof route.procedures]?.status ?? SUCCESS[method];
        it(`documents ${method} on ${route.name} with its served success status ${success}`, () => {
          const path = documentedPath(doc, route.pattern);
          const op = operation(doc, path, method.toLowerCase() as HttpMethod);
          const successes = statuses(op).filter((s) => s.startsWith('2'));
          expect(successes).to.deep.equal([String(success)]);
        });
      }
    }

    it('keeps the trailing slash on every path of the routing table', () => {
      expect(Object.keys(doc.paths ?? {})).to.include.members([
        '/snippets/',
        '/snippets/{id}/',
        '/users/',
        '/users/{id}/',
      ]);
    });

    it('documents only what the routing table serves on its paths (no PATCH, no extra operations)', () => {
      for (const [path, item] of Object.entries(doc.paths ?? {})) {
        const route = ROUTES.find((r) => r.pattern.test(example(path)));
        if (!route) continue; // the paths served beside the facade: coverage.test.ts

        const documented = ['get', 'post', 'put', 'delete', 'patch', 'head', 'options'].filter((m) => m in item);
        expect(documented.map((m) => m.toUpperCase())).to.have.members(Object.keys(route.procedures));
      }
    });

    it('documents DELETE 204 with no content and POST 201 with the representation', () => {
      expect(response(doc, operation(doc, '/snippets/{id}/', 'delete'), 204).content).to.equal(undefined);
      const created = response(doc, operation(doc, '/snippets/', 'post'), 201);
      expect(created.content?.['application/json']?.schema).to.deep.equal({ $ref: '#/components/schemas/Snippet' });
    });

    it('documents the `id` path parameter as a required integer of digits', () => {
      for (const [path, item] of Object.entries(doc.paths ?? {})) {
        if (!path.includes('{id}')) continue;
        for (const op of [item.get, item.put, item.delete]) {
          if (!op) continue;
          const id = (op.parameters as ParameterObject[]).find((p) => p.in === 'path');
          expect(id).to.deep.include({ name: 'id', required: true });
          expect(id?.schema).to.deep.include({ type: 'integer', pattern: '^[0-9]+$' });
        }
      }
    });
  });

  describe('history and conditional writes', () => {
    const writes = [
      ['/snippets/{id}/', 'put'],
      ['/snippets/{id}/', 'delete'],
      ['/snippets/{id}/revisions/{n}/restore/', 'post'],
    ] as const;
    for (const [path, method] of writes) {
      it(`${method.toUpperCase()} ${path} takes If-Match as a header (not a body or query field) and documents 412`, () => {
        const op = operation(doc, path, method);
        const parameters = op.parameters as ParameterObject[];
        expect(parameters.find((p) => p.name === 'If-Match')).to.deep.include({ in: 'header', required: false });
        expect(parameters.map((p) => p.name)).not.to.include('ifMatch');
        expect(JSON.stringify(op.requestBody ?? {})).not.to.include('ifMatch');
        expect(statuses(op)).to.include('412');
      });
    }

    it('documents the snippet ETag, the restore without a body, and the diff as text/x-diff', () => {
      expect(response(doc, operation(doc, '/snippets/{id}/', 'get'), 200).headers).to.have.property('ETag');
      const restore = operation(doc, '/snippets/{id}/revisions/{n}/restore/', 'post');
      expect(restore.requestBody).to.equal(undefined);
      expect(response(doc, restore, 200).headers).to.have.property('ETag');
      const diff = operation(doc, '/snippets/{id}/revisions/{n}/diff/', 'get');
      expect(Object.keys(response(doc, diff, 200).content ?? {})).to.deep.equal(['text/x-diff']);
      expect(statuses(diff)).to.include.members(['400', '404', '422']);
      expect((diff.parameters as ParameterObject[]).map((p) => p.name)).to.deep.equal(['id', 'n', 'from']);
    });
  });

  describe('writes', () => {
    for (const [path, method] of [
      ['/snippets/', 'post'],
      ['/snippets/{id}/', 'put'],
    ] as const) {
      it(`${method.toUpperCase()} ${path} takes JSON, form-urlencoded and multipart bodies of one schema`, () => {
        const body = operation(doc, path, method).requestBody as {
          required: boolean;
          content: Record<string, { schema: unknown }>;
        };
        expect(body.required).to.equal(true);
        expect(Object.keys(body.content)).to.have.members(BODY_TYPES);
        for (const type of BODY_TYPES)
          expect(body.content[type]!.schema).to.deep.equal({ $ref: '#/components/schemas/SnippetInput' });
      });
    }

    it('documents the input fields with their limits and defaults, `code` required', () => {
      const input = doc.components?.schemas?.SnippetInput as {
        required: string[];
        properties: Record<string, Record<string, unknown>>;
      };
      expect(input.required).to.deep.equal(['code']);
      expect(input.properties.code).to.include({ type: 'string', maxLength: 100000 });
      expect(input.properties.title).to.include({ maxLength: 100, default: '' });
      expect(input.properties.linenos).to.include({ type: 'boolean', default: false });
      expect(input.properties.language).to.include({ maxLength: 100, default: 'python' });
      expect(input.properties.style).to.include({ maxLength: 100, default: 'friendly' });
    });

    it('documents 400, 401 and 403 on the create operation', () => {
      expect(statuses(operation(doc, '/snippets/', 'post'))).to.include.members([
        '400',
        '401',
        '403',
        '413',
        '415',
        '429',
      ]);
    });

    it('documents 401 with WWW-Authenticate and the `detail` shape', () => {
      const unauthorized = response(doc, operation(doc, '/snippets/', 'post'), 401);
      expect(unauthorized.headers).to.have.property('WWW-Authenticate');
      expect(unauthorized.content?.['application/json']?.schema).to.deep.equal({ $ref: '#/components/schemas/Error' });
      expect(doc.components?.schemas?.Error).to.deep.include({ required: ['detail'] });
    });

    it('documents 400 as the validation field map or `detail`', () => {
      const badRequest = response(doc, operation(doc, '/snippets/', 'post'), 400);
      expect(badRequest.content?.['application/json']?.schema).to.deep.equal({
        oneOf: [{ $ref: '#/components/schemas/ValidationError' }, { $ref: '#/components/schemas/Error' }],
      });
      const validation = doc.components?.schemas?.ValidationError as Record<string, unknown>;
      expect(validation.additionalProperties).to.deep.equal({ type: 'array', items: { type: 'string' } });
      expect(validation.properties).to.have.property('non_field_errors');
    });

    it('documents 404 on instances and 405 with Allow among the shared responses', () => {
      expect(operation(doc, '/snippets/{id}/', 'put').responses).to.have.property('404');
      expect((doc.components?.responses?.Error405 as ResponseObject).headers).to.have.property('Allow');
    });
  });

  describe('security', () => {
    it('describes the basic, token, OAuth2 and session schemes', () => {
      const schemes = doc.components?.securitySchemes as Record<string, SecuritySchemeObject>;
      expect(schemes.basic).to.include({ type: 'http', scheme: 'basic' });
      expect(schemes.token).to.include({ type: 'apiKey', in: 'header', name: 'Authorization' });
      expect(schemes.token?.description).to.include('Token <key>');
      expect(schemes.oauth2?.type).to.equal('oauth2');
      expect(schemes.oauth2?.flows?.password?.tokenUrl).to.equal('/oauth2/access_token/');
      expect(schemes.session).to.include({ type: 'apiKey', in: 'cookie', name: 'sessionid' });
      expect(schemes.session?.description).to.include('`csrftoken` cookie').and.include('`X-CSRFToken`');
    });

    it('requires credentials on the writes and leaves reads open to anonymous requesters', () => {
      for (const [path, method] of [
        ['/snippets/', 'post'],
        ['/snippets/{id}/', 'put'],
        ['/snippets/{id}/', 'delete'],
      ] as const) {
        const security = operation(doc, path, method).security;
        expect(security, `${method} ${path}`).to.deep.include({ basic: [] });
        expect(security, `${method} ${path}`).not.to.deep.include({});
      }
      for (const [path, method] of [
        ['/snippets/', 'get'],
        ['/users/{id}/', 'get'],
      ] as const) {
        expect(operation(doc, path, method).security).to.deep.include({});
      }
    });

    it('lists only the configured schemes, and no 401 when the first one has no challenge', async () => {
      const sessionFirst = await fetchDocument({
        AUTH_SCHEMES: ['session', 'basic'],
        TOKEN_AUTH_PATH: 'api-token-auth/',
        API_AUTH_PREFIX: 'api-auth/',
      });
      expect(Object.keys(sessionFirst.components?.securitySchemes ?? {})).to.deep.equal(['session', 'basic']);
      expect(operation(sessionFirst, '/snippets/', 'post').responses).not.to.have.property('401');
      expect(operation(sessionFirst, '/snippets/', 'post').responses).to.have.property('403');
    });
  });
});
