// The paths served beside the REST facade's routing table: the API root, a snippet's highlight and raw views, the
// probes, and this document and its reference page (server/app.ts mounts each).
import type { PathsObject, ResponseObject, SchemaObject } from 'openapi3-ts/oas31';
import { errorResponsesFor } from './components';
import { ID_PARAMETER } from './paths';
import { firstChallenge, readSecurity, type SecurityOptions } from './security';
import { OPENAPI_PATH } from './docs-page';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const body = (
  type: string,
  schema: SchemaObject | { $ref: string },
  description: string,
  example?: unknown,
): ResponseObject => ({
  description,
  content: { [type]: example === undefined ? { schema } : { schema, example } },
});

export const SERVICE_SCHEMAS: Record<string, SchemaObject> = {
  ApiRoot: {
    type: 'object',
    properties: { snippets: { type: 'string', format: 'uri' }, users: { type: 'string', format: 'uri' } },
    required: ['snippets', 'users'],
  },
};

/** `Allow` of a path served by its own handler, as the path item's description says it for the facade's paths. */
const allow = (methods: string) => `Allow: ${methods}. HEAD answers as GET without a body.`;

export function servicePaths(options: SecurityOptions): PathsObject {
  const challenge = firstChallenge(options);
  const security = readSecurity(options);
  // Every path behind the authentication chain and the request throttle can refuse credentials and throttle.
  const refusals = (...more: number[]) =>
    errorResponsesFor(
      [401, 403, ...more, 429].sort((a, b) => a - b),
      challenge,
    );
  return {
    '/': {
      description: `${allow('GET, HEAD, OPTIONS')} OPTIONS describes the resource; any other method answers 405.`,
      get: {
        operationId: 'api-root',
        tags: ['api'],
        summary: 'The API root: links to the snippet and user lists',
        description:
          'A browser asking for `text/html` gets the browsable page, which also links `/docs` and this document.',
        security,
        responses: {
          200: body('application/json', ref('ApiRoot'), 'Absolute URLs of the lists.', {
            snippets: 'http://127.0.0.1:8000/snippets/',
            users: 'http://127.0.0.1:8000/users/',
          }),
          ...refusals(406),
        },
      },
    },
    '/snippets/{id}/highlight/': {
      description: allow('GET, HEAD'),
      get: {
        operationId: 'snippets-highlight',
        tags: ['snippets'],
        summary: "The snippet's highlighted HTML document",
        description:
          'The document rendered when the snippet was saved, under a Content-Security-Policy that allows no script.',
        parameters: [ID_PARAMETER],
        security,
        responses: {
          200: {
            ...body('text/html', { type: 'string' }, 'A whole HTML document with its own styles.'),
            headers: {
              'Content-Security-Policy': {
                description: 'No script runs; the inline styles of the document do.',
                schema: { type: 'string' },
              },
            },
          },
          ...refusals(404, 503),
        },
      },
    },
    '/snippets/{id}/raw/': {
      description: allow('GET, HEAD'),
      get: {
        operationId: 'snippets-raw',
        tags: ['snippets'],
        summary: "The snippet's code as plain text",
        parameters: [ID_PARAMETER],
        security,
        responses: {
          200: body('text/plain', { type: 'string' }, 'The code exactly as stored.', 'print("hello")\n'),
          ...refusals(404, 503),
        },
      },
    },
    '/snippets/{id}/download/': {
      description: allow('GET, HEAD'),
      get: {
        operationId: 'snippets-download',
        tags: ['snippets'],
        summary: "The snippet's code as a file to save",
        description:
          'The code exactly as stored, with `Content-Disposition: attachment` and a file name from the title (as it is ' +
          'when it already ends in an extension, such as `main.rs`) or the language (`snippet-5.py`).',
        parameters: [ID_PARAMETER],
        security,
        responses: {
          200: {
            ...body('text/plain', { type: 'string' }, 'The code exactly as stored.', 'print("hello")\n'),
            headers: {
              'Content-Disposition': {
                description: 'attachment; filename=… (RFC 6266)',
                schema: { type: 'string' },
              },
            },
          },
          ...refusals(404, 503),
        },
      },
    },
    '/healthz': {
      description: `${allow('GET, HEAD')} Answered before authentication and throttling: a load balancer sends no credentials.`,
      get: {
        operationId: 'health-live',
        tags: ['operations'],
        security: [],
        summary: 'Liveness: the process answers',
        responses: {
          200: body(
            'application/json',
            {
              type: 'object',
              properties: {
                status: { const: 'ok' },
                worker: {
                  type: 'integer',
                  description: 'The cluster worker that answered; 0 without WEB_CONCURRENCY.',
                },
              },
              required: ['status', 'worker'],
            },
            'The process is alive.',
            { status: 'ok', worker: 0 },
          ),
        },
      },
    },
    '/readyz': {
      description: `${allow('GET, HEAD')} Answered before authentication and throttling.`,
      get: {
        operationId: 'health-ready',
        tags: ['operations'],
        security: [],
        summary: 'Readiness: the database answers',
        parameters: [
          {
            name: 'writes',
            in: 'query',
            required: false,
            description:
              'Present: a database that cannot take writes (its disk is full) answers 503, for a monitor; absent, 200 "read-only" (reads still work).',
            schema: { type: 'string' },
            allowEmptyValue: true,
          },
        ],
        responses: {
          200: body(
            'application/json',
            {
              type: 'object',
              properties: { status: { enum: ['ready', 'read-only'] }, detail: { type: 'string' } },
              required: ['status'],
            },
            'The database answered a read of the snippets table (and, on Galera, this node is Synced), on a connection of its own. "read-only", with a detail, while it cannot take writes (a full disk).',
            { status: 'ready' },
          ),
          503: body(
            'application/json',
            ref('Error'),
            'The database did not answer (route no traffic here); or, with ?writes, it cannot take writes.',
            { detail: 'The database is not answering.' },
          ),
        },
      },
    },
    [OPENAPI_PATH]: {
      description: allow('GET, HEAD'),
      get: {
        operationId: 'openapi-document',
        tags: ['api'],
        summary: 'This OpenAPI 3.1 document',
        security,
        responses: {
          200: body('application/json', { type: 'object' }, 'The document, built once per process.'),
          ...refusals(),
        },
      },
    },
    '/docs': {
      description: allow('GET, HEAD'),
      get: {
        operationId: 'docs-page',
        tags: ['api'],
        summary: 'The interactive reference page (Swagger UI) reading this document',
        security,
        responses: {
          200: body('text/html', { type: 'string' }, 'Every script and style from this origin, no inline script.'),
          ...refusals(),
        },
      },
    },
  };
}
