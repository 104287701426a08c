// The OpenAPI 3.1 document of the REST API as served (DESIGN §4): the routed procedures' paths, the paths served
// beside them, the authentication endpoints, and the components they refer to.
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { appRouter } from '../../src/routers';
import { routesOf } from '../rest/routes';
import { ERROR_SCHEMAS, errorResponseName, errorResponses } from './components';
import { bodySchemas, componentSchemas, restPaths } from './paths';
import { firstChallenge, securitySchemes, type SecurityOptions } from './security';
import { snippetInputSchema } from './snippet-input';
import { AUTH_SCHEMAS, authPaths } from './auth-paths';
import { SERVICE_SCHEMAS, servicePaths } from './service-paths';

/** The defaults of AUTH_SCHEMES, TOKEN_AUTH_PATH and API_AUTH_PREFIX (src/config.ts), for a document built without a config. */
export const DEFAULT_SECURITY: SecurityOptions = {
  AUTH_SCHEMES: ['basic', 'session', 'token', 'oauth2'],
  TOKEN_AUTH_PATH: 'api-token-auth/',
  API_AUTH_PREFIX: 'api-auth/',
};

const DESCRIPTION = [
  'A pastebin-style API: code snippets with a highlighted HTML rendering, and read-only user records.',
  'Reads are open to anyone; creating needs credentials; only the owner may replace or delete a snippet.',
  'Request bodies may be JSON, form-urlencoded or multipart/form-data. Responses are JSON; browsers asking for',
  '`text/html` get the browsable API page instead. Errors carry `{"detail": "…"}`, validation errors a field map.',
  'HEAD and OPTIONS are served on every path but not listed as operations: HEAD is GET without a body, and',
  'OPTIONS returns the resource description (see each path). TypeScript clients may call the same procedures',
  'at `/trpc` (not described here; the `AppRouter` type describes them). The static files of the pages',
  '(`/static/…`, `/docs/assets/…`, `/favicon.ico`) are not described either.',
].join(' ');

export function buildOpenApiDocument(options: SecurityOptions = DEFAULT_SECURITY): OpenAPIObject {
  const routes = routesOf(appRouter);
  const bodies = bodySchemas(routes);
  const responses = Object.entries(errorResponses(firstChallenge(options))).map(([status, response]) => [
    errorResponseName(Number(status)),
    response,
  ]);
  return {
    openapi: '3.1.0',
    // The API is unversioned (spec, "Versioning"); this is the document's own revision.
    info: { title: 'snippets', description: DESCRIPTION, version: '1', license: { name: 'MIT', identifier: 'MIT' } },
    // A relative server: paths resolve against the origin /openapi.json was fetched from, wherever the service runs.
    servers: [{ url: '/' }],
    tags: [
      { name: 'snippets', description: 'Code snippets; the owner is whoever created it.' },
      { name: 'users', description: 'Read-only user records with the ids of the snippets each owns.' },
      { name: 'tokens', description: 'Your personal access tokens: named, scoped, expiring; each key shown once.' },
      { name: 'authentication', description: 'Tokens, OAuth 2.0 tokens, and the session login and logout pages.' },
      { name: 'api', description: 'The API root and this description.' },
      { name: 'operations', description: 'Probes for load balancers and orchestrators.' },
    ],
    paths: { ...restPaths(routes, options), ...servicePaths(options), ...authPaths(options) },
    components: {
      schemas: {
        ...componentSchemas(),
        ...bodies,
        SnippetInput: snippetInputSchema(bodies.SnippetInput!),
        ...ERROR_SCHEMAS,
        ...SERVICE_SCHEMAS,
        ...AUTH_SCHEMAS,
      },
      responses: Object.fromEntries(responses),
      securitySchemes: securitySchemes(options),
    },
  };
}
