// The paths as the REST facade serves them, rebuilt from the generated operations and the routing table (server/rest/routes.ts).
import type {
  OperationObject,
  ParameterObject,
  PathItemObject,
  PathsObject,
  ReferenceObject,
  RequestBodyObject,
  ResponseObject,
  ResponsesObject,
  SchemaObject,
} from 'openapi3-ts/oas31';
import { allowedMethods, type Method, type RoutedProcedure, type Route } from '../rest/routes';
import { PARSED_MEDIA_TYPES } from '../http/body';
import { errorResponse, errorResponseName } from './components';
import { firstChallenge, readSecurity, writeSecurity, type SecurityOptions } from './security';
import { SUCCESS_STATUS } from '../rest/outcome';

/** The schema component each snippet write's body is documented as (POST and PUT take the same fields). */
export const BODY_SCHEMA = 'SnippetInput';

/** The writes whose body is not a snippet's, each documented under a component of its own. */
export const OTHER_BODY_SCHEMAS: Record<string, string> = { 'tokens.create': 'PersonalTokenInput' };

const bodySchemaOf = (procedure: string) => OTHER_BODY_SCHEMAS[procedure] ?? BODY_SCHEMA;

/** The route's `<pk>` is `[0-9]+`: no sign, no exponent, no leading space; anything else is 404, not 400. */
export const ID_PARAMETER: ParameterObject = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The primary key: one or more digits.',
  schema: { type: 'integer', minimum: 0, pattern: '^[0-9]+$' },
};

/** A revision's number in a path: digits, like the id. */
export const N_PARAMETER: ParameterObject = {
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

const isReference = (x: object): x is ReferenceObject => '$ref' in x;

interface Generated {
  path: string;
  operation: OperationObject;
}

/** The generated operation of a procedure (the adapter names it "snippets-get" for "snippets.get"). */
function generatedOperation(paths: PathsObject, procedure: string): Generated {
  const operationId = procedure.replace(/\./g, '-');
  for (const [path, item] of Object.entries(paths)) {
    for (const operation of Object.values(item as Record<string, OperationObject>)) {
      if (operation?.operationId === operationId) return { path, operation };
    }
  }
  throw new Error(`OpenAPI: the routed procedure ${procedure} has no .meta({ openapi }) operation`);
}

/** The generated JSON schema of a write's body, without the If-Match input (a header on REST). */
function generatedBodySchema(operation: OperationObject): SchemaObject | undefined {
  const body = operation.requestBody;
  if (!body || isReference(body)) return undefined;
  const schema = body.content['application/json']?.schema as SchemaObject | undefined;
  if (!schema?.properties?.[IF_MATCH_FIELD]) return schema;
  const { [IF_MATCH_FIELD]: _ifMatch, ...properties } = schema.properties;
  return { ...schema, properties };
}

/**
 * The body schema every routed write documented under `component` shares (BODY_SCHEMA: the snippet writes), checked to
 * be one shape so documenting it once stays true.
 */
export function generatedWriteBody(
  routes: readonly Route[],
  generated: PathsObject,
  component: string = BODY_SCHEMA,
): SchemaObject {
  const schemas = routes.flatMap((route) =>
    (['POST', 'PUT'] as const).flatMap((method) => {
      const procedure = route.procedures[method];
      return procedure && !procedure.bodyless && bodySchemaOf(procedure.path) === component
        ? [generatedBodySchema(generatedOperation(generated, procedure.path).operation)]
        : [];
    }),
  );
  const [first] = schemas;
  if (!first || schemas.some((s) => JSON.stringify(s) !== JSON.stringify(first))) {
    throw new Error(`OpenAPI: the writes no longer share one body shape; document each under its own name`);
  }
  return first;
}

/** The same schema under each media type the facade parses (server/rest/body.ts). */
function requestBody(component: string): RequestBodyObject {
  const schema = { $ref: `#/components/schemas/${component}` };
  return { required: true, content: Object.fromEntries(PARSED_MEDIA_TYPES.map((type) => [type, { schema }])) };
}

function successResponse(
  status: number,
  generated: ResponseObject | ReferenceObject | undefined,
  procedure: RoutedProcedure,
): ResponseObject {
  const { paged } = procedure;
  const description = generated && !isReference(generated) ? generated.description : 'Successful response';
  // A 204 has no body and no Content-Type (server/http/respond.ts sendNoContent).
  if (status === 204) return { description };
  if (procedure.text)
    return { description, content: { [procedure.text.split(';')[0]!]: { schema: { type: 'string' } } } };
  const response: ResponseObject = { ...(generated as ResponseObject), description };
  if (!paged) return response;
  // A paged procedure returns `{ items, next }`: the body is the items, the next page a Link header.
  const schema = response.content?.['application/json']?.schema as SchemaObject | undefined;
  const items = schema?.properties?.items;
  if (!items) throw new Error('OpenAPI: a paged procedure no longer returns { items, next }');
  return { ...response, content: { 'application/json': { schema: items } }, headers: LINK_HEADER };
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

/** The writes to one snippet (PUT, DELETE, a restore) take If-Match: their procedures' `ifMatch` input. */
function conditional(generated: OperationObject): boolean {
  const inQuery = (generated.parameters ?? []).some((p) => !isReference(p) && p.name === IF_MATCH_FIELD);
  const body = generated.requestBody;
  const schema = body && !isReference(body) ? (body.content['application/json']?.schema as SchemaObject) : undefined;
  return inQuery || Boolean(schema?.properties?.[IF_MATCH_FIELD]);
}

function servedOperation(
  route: Route,
  method: Method,
  procedure: RoutedProcedure,
  generated: OperationObject,
  options: SecurityOptions,
): OperationObject {
  const path = route.template;
  const { responses, parameters = [], requestBody: _generatedBody, security: _generatedSecurity, ...rest } = generated;
  const query = parameters.filter((p) => !isReference(p) && p.in === 'query' && p.name !== IF_MATCH_FIELD);
  const success = procedure.status ?? SUCCESS_STATUS[method] ?? 200;
  const out: ResponsesObject = {
    [success]: successResponse(success, (responses as ResponsesObject)['200'], procedure),
  };
  // A snippet read, created, saved or restored names its revision; a create, its URL (server/rest/outcome.ts).
  if (
    (route.name === 'snippet-detail' && (method === 'GET' || method === 'PUT')) ||
    route.name === 'snippet-revision-restore'
  )
    out[success].headers = ETAG_HEADER;
  const ifMatch = conditional(generated);
  if (route.name === 'snippet-list' && method === 'POST') out[success].headers = { ...LOCATION_HEADER, ...ETAG_HEADER };
  for (const status of errorStatuses(path, method, procedure, query.length, options, ifMatch))
    out[status] = errorResponse(status);
  const isWrite = method !== 'GET';
  return {
    ...rest,
    parameters: [
      ...(path.includes('{id}') ? [ID_PARAMETER] : []),
      ...(path.includes('{n}') ? [N_PARAMETER] : []),
      ...query,
      ...(ifMatch ? [IF_MATCH_PARAMETER] : []),
    ],
    ...((method === 'POST' || method === 'PUT') && !procedure.bodyless
      ? { requestBody: requestBody(bodySchemaOf(procedure.path)) }
      : {}),
    security:
      (isWrite && route.authenticatedOrReadOnly) || procedure.protect ? writeSecurity(options) : readSecurity(options),
    responses: out,
  };
}

/** Every served path and method of the routing table, and nothing the facade does not serve (paths keep their trailing slash). */
export function servedPaths(routes: readonly Route[], generated: PathsObject, options: SecurityOptions): PathsObject {
  const paths: PathsObject = {};
  for (const route of routes) {
    for (const [method, procedure] of Object.entries(route.procedures) as [Method, RoutedProcedure][]) {
      const found = generatedOperation(generated, procedure.path);
      const path = route.template;
      const item: PathItemObject = (paths[path] ??= {
        description:
          `Allow: ${allowedMethods(route).join(', ')}.${route.procedures.GET ? ' HEAD answers as GET without a body;' : ''} OPTIONS describes the resource ` +
          `(name, renders, parses, actions). Any other method answers 405 (#/components/responses/${errorResponseName(405)}).`,
      });
      item[method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'] = servedOperation(
        route,
        method,
        procedure,
        found.operation,
        options,
      );
    }
  }
  return paths;
}
