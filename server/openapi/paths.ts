// The paths the REST facade serves: one operation per routed procedure (server/rest/routes.ts), from its `.meta` and
// its zod input and output.
import type {
  OperationObject,
  ParameterObject,
  PathsObject,
  RequestBodyObject,
  ResponseObject,
  SchemaObject,
} from 'openapi3-ts/oas31';
import { z, type ZodType } from 'zod';
import { createSchema } from 'zod-openapi';
import { Revision } from '../../src/snippets/revision';
import { Snippet } from '../../src/snippets/schema';
import { User } from '../../src/users/schema';
import { PARSED_MEDIA_TYPES } from '../http/body';
import { SUCCESS_STATUS } from '../rest/outcome';
import { allowedMethods, type Method, type Route, type RoutedProcedure } from '../rest/routes';
import { errorResponse, errorResponseName } from './components';
import { firstChallenge, readSecurity, writeSecurity, type SecurityOptions } from './security';

/** The shapes documented once under components.schemas; operations refer to them by `$ref`. */
const SCHEMA_COMPONENTS = { Snippet, User, Revision };

/**
 * A zod schema as OpenAPI 3.1 JSON Schema, and the components it refers to. zod-openapi runs zod 4's `z.toJSONSchema`
 * for OpenAPI: no `$schema`, and SCHEMA_COMPONENTS referred to as `#/components/schemas/…` rather than copied in `$defs`.
 */
const jsonSchema = (schema: ZodType, io: 'input' | 'output') =>
  createSchema(schema, { io, schemaComponents: SCHEMA_COMPONENTS }) as {
    schema: SchemaObject;
    components: Record<string, SchemaObject>;
  };

/** SCHEMA_COMPONENTS as JSON Schema, by name. */
export const componentSchemas = (): Record<string, SchemaObject> =>
  Object.fromEntries(
    Object.entries(SCHEMA_COMPONENTS).map(([name, schema]) => [name, jsonSchema(schema, 'output').components[name]!]),
  );

/** The component each write's body is documented under: POST and PUT of a snippet take the same fields. */
const BODY_COMPONENTS: Record<string, string> = {
  'snippets.create': 'SnippetInput',
  'snippets.update': 'SnippetInput',
  'tokens.create': 'PersonalTokenInput',
};

/** The route's `<pk>` is `[0-9]+`: no sign, no exponent, no leading space; anything else is 404, not 400. */
export const ID_PARAMETER: ParameterObject = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The primary key: one or more digits.',
  schema: { type: 'integer', minimum: 0, pattern: '^[0-9]+$' },
};

/** A revision's number in a path: digits, like the id. */
const N_PARAMETER: ParameterObject = {
  name: 'n',
  in: 'path',
  required: true,
  description: 'The revision number: one or more digits, counted from 1.',
  schema: { type: 'integer', minimum: 1, pattern: '^[0-9]+$' },
};

/** The procedures' `ifMatch` input is the If-Match header on REST (server/rest/facade.ts), never a body or query field. */
const IF_MATCH_FIELD = 'ifMatch';

const IF_MATCH_PARAMETER: ParameterObject = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    'Write only if the snippet is still at this version (RFC 9110 §13.1.1): one or several ETags of `GET /snippets/{id}/`, ' +
    'or `*`. A weak tag never matches. Otherwise 412 and nothing changes.',
  schema: { type: 'string', example: '"3"' },
};

const ETAG_HEADER = {
  ETag: {
    description:
      'The snippet\'s revision as a strong entity tag (`"3"`), for If-Match on a later write and If-None-Match on a later read.',
    schema: { type: 'string' as const },
  },
};

const LOCATION_HEADER = {
  Location: {
    description: "The new snippet's URL (RFC 9110 §10.2.2), absolute.",
    schema: { type: 'string' as const, format: 'uri' },
  },
};

const LINK_HEADER = {
  Link: {
    description: 'With `?limit=`, the next page when there is one: `<url>; rel="next"` (RFC 8288).',
    schema: { type: 'string' as const },
  },
};

/** The procedure's input fields by name (none for z.void()). */
const fieldsOf = (procedure: RoutedProcedure): Record<string, ZodType> =>
  procedure.input instanceof z.ZodObject ? (procedure.input.shape as Record<string, ZodType>) : {};

/** The input fields that are neither in the path nor the If-Match header: a write's body, a read's query. */
const ownFields = (route: Route, procedure: RoutedProcedure) =>
  Object.entries(fieldsOf(procedure)).filter(
    ([name]) => name !== IF_MATCH_FIELD && !route.template.includes(`{${name}}`),
  );

const hasBody = (method: Method, procedure: RoutedProcedure) =>
  (method === 'POST' || method === 'PUT') && !procedure.bodyless;

/** Each body component's schema, checked to be the same for every write documented under it. */
export function bodySchemas(routes: readonly Route[]): Record<string, SchemaObject> {
  const bodies: Record<string, SchemaObject> = {};
  for (const route of routes) {
    for (const [method, procedure] of Object.entries(route.procedures) as [Method, RoutedProcedure][]) {
      if (!hasBody(method, procedure)) continue;
      const name = BODY_COMPONENTS[procedure.path];
      if (!name) throw new Error(`OpenAPI: name the body component of ${procedure.path} in BODY_COMPONENTS`);
      const { schema } = jsonSchema(z.object(Object.fromEntries(ownFields(route, procedure))), 'input');
      if (bodies[name] && JSON.stringify(bodies[name]) !== JSON.stringify(schema))
        throw new Error(`OpenAPI: the writes documented as ${name} no longer take the same fields`);
      bodies[name] = schema;
    }
  }
  return bodies;
}

/** The same schema under each media type the facade parses (server/http/body.ts). */
function requestBody(component: string): RequestBodyObject {
  const schema = { $ref: `#/components/schemas/${component}` };
  return { required: true, content: Object.fromEntries(PARSED_MEDIA_TYPES.map((type) => [type, { schema }])) };
}

/** A page's Link; a snippet read, saved or restored names its revision, a create also its URL (server/rest/outcome.ts). */
function successHeaders(route: Route, method: Method, procedure: RoutedProcedure) {
  if (procedure.paged) return LINK_HEADER;
  if (route.name === 'snippet-list' && method === 'POST') return { ...LOCATION_HEADER, ...ETAG_HEADER };
  if (
    (route.name === 'snippet-detail' && (method === 'GET' || method === 'PUT')) ||
    route.name === 'snippet-revision-restore'
  )
    return ETAG_HEADER;
  return undefined;
}

function successResponse(route: Route, method: Method, procedure: RoutedProcedure, status: number): ResponseObject {
  const description = procedure.openapi.successDescription ?? 'Successful response';
  // A 204 has no body and no Content-Type (server/http/respond.ts sendNoContent).
  if (status === 204) return { description };
  if (procedure.text)
    return { description, content: { [procedure.text.split(';')[0]!]: { schema: { type: 'string' } } } };
  // A paged procedure returns `{ items, next }`: the body is the items, the next page a Link header.
  const output = procedure.paged ? (procedure.output as z.ZodObject).shape.items : procedure.output;
  if (!output) throw new Error(`OpenAPI: the paged ${procedure.path} no longer returns { items, next }`);
  const headers = successHeaders(route, method, procedure);
  return {
    description,
    content: { 'application/json': { schema: jsonSchema(output as ZodType, 'output').schema } },
    ...(headers ? { headers } : {}),
  };
}

/** The refusals that can happen to this operation, in status order. */
function errorStatuses(
  path: string,
  method: Method,
  procedure: RoutedProcedure,
  queryParameters: number,
  options: SecurityOptions,
  ifMatch: boolean,
): number[] {
  const statuses = new Set([403, 406, 429, 503]);
  if (ifMatch) statuses.add(412);
  // A diff that cannot be computed within the highlighting deadline.
  if (procedure.text) statuses.add(422);
  if (firstChallenge(options)) statuses.add(401);
  // 413 also for a save past the owner's quota; 507 for a disk that is full.
  if (method === 'POST' || method === 'PUT') [400, 413, 415, 507].forEach((s) => statuses.add(s));
  if (path.includes('{id}')) statuses.add(404);
  // An invalid ?limit= is a field error; a ?cursor= that names no position is 404.
  if (queryParameters > 0) [400, 404].forEach((s) => statuses.add(s));
  return [...statuses].sort((a, b) => a - b);
}

function operation(
  route: Route,
  method: Method,
  procedure: RoutedProcedure,
  options: SecurityOptions,
): OperationObject {
  const path = route.template;
  const { summary, description, tags } = procedure.openapi;
  // A read's fields are its query; a write's other than the path's are its body.
  const query: ParameterObject[] = (method === 'GET' || method === 'DELETE' ? ownFields(route, procedure) : []).map(
    ([name, schema]) => ({
      in: 'query',
      name,
      schema: jsonSchema(schema, 'input').schema,
      ...(schema.safeParse(undefined).success ? {} : { required: true }),
    }),
  );
  // The writes to one snippet (PUT, DELETE, a restore) take If-Match: their procedures' `ifMatch` input.
  const ifMatch = IF_MATCH_FIELD in fieldsOf(procedure);
  const success = procedure.status ?? SUCCESS_STATUS[method] ?? 200;
  const responses: Record<number, unknown> = { [success]: successResponse(route, method, procedure, success) };
  for (const status of errorStatuses(path, method, procedure, query.length, options, ifMatch))
    responses[status] = errorResponse(status);
  return {
    operationId: procedure.path.replace(/\./g, '-'),
    summary,
    description,
    tags,
    parameters: [
      ...(path.includes('{id}') ? [ID_PARAMETER] : []),
      ...(path.includes('{n}') ? [N_PARAMETER] : []),
      ...query,
      ...(ifMatch ? [IF_MATCH_PARAMETER] : []),
    ],
    ...(hasBody(method, procedure) ? { requestBody: requestBody(BODY_COMPONENTS[procedure.path]!) } : {}),
    security:
      (method !== 'GET' && route.authenticatedOrReadOnly) || procedure.protect
        ? writeSecurity(options)
        : readSecurity(options),
    responses,
  };
}

/** Every served path and method of the routing table, and nothing the facade does not serve (paths keep their trailing slash). */
export function restPaths(routes: readonly Route[], options: SecurityOptions): PathsObject {
  return Object.fromEntries(
    routes.map((route) => [
      route.template,
      {
        description:
          `Allow: ${allowedMethods(route).join(', ')}.${route.procedures.GET ? ' HEAD answers as GET without a body;' : ''} OPTIONS describes the resource ` +
          `(name, renders, parses, actions). Any other method answers 405 (#/components/responses/${errorResponseName(405)}).`,
        ...Object.fromEntries(
          (Object.entries(route.procedures) as [Method, RoutedProcedure][]).map(([method, procedure]) => [
            method.toLowerCase(),
            operation(route, method, procedure, options),
          ]),
        ),
      },
    ]),
  );
}
