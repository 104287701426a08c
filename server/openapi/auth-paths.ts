// The authentication endpoints: the token endpoint (TOKEN_AUTH_PATH), the OAuth 2.0 token endpoint (RFC 6749) and
// the session's login and logout pages (API_AUTH_PREFIX). docs/authentication.md tells how they fit together.
import type {
  HeaderObject,
  OperationObject,
  ParameterObject,
  PathsObject,
  RequestBodyObject,
  ResponseObject,
  ResponsesObject,
  SchemaObject,
} from 'openapi3-ts/oas31';
import { CSRF_COOKIE, CSRF_FIELD } from '../auth/csrf';
import { TOKEN_PATHS } from '../auth/oauth2/routes';
import { SESSION_COOKIE } from '../auth/session';
import { PARSED_MEDIA_TYPES } from '../http/body';
import { mountPath } from '../http/urls';
import { errorResponse, errorResponsesFor } from './components';
import { firstChallenge, readSecurity, type SecurityOptions } from './security';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const STRING: SchemaObject = { type: 'string' };
const CSRF_TOKEN: SchemaObject = {
  type: 'string',
  description: `The \`${CSRF_COOKIE}\` cookie's value (or send it in \`X-CSRFToken\`).`,
};

export const AUTH_SCHEMAS: Record<string, SchemaObject> = {
  TokenRequest: {
    type: 'object',
    properties: { username: STRING, password: STRING },
    required: ['username', 'password'],
  },
  Token: {
    type: 'object',
    properties: { token: { type: 'string', description: 'Send it as `Authorization: Token <key>`.' } },
    required: ['token'],
  },
  OAuth2TokenRequest: {
    type: 'object',
    description:
      'The client authenticates with `client_id` and `client_secret` here, or with HTTP Basic (`client_id:client_secret`). ' +
      'The password grant needs `username` and `password`; the refresh_token grant `refresh_token`.',
    properties: {
      grant_type: { type: 'string', enum: ['password', 'refresh_token'] },
      username: STRING,
      password: STRING,
      refresh_token: STRING,
      scope: STRING,
      client_id: STRING,
      client_secret: STRING,
    },
    required: ['grant_type'],
  },
  OAuth2Token: {
    type: 'object',
    properties: {
      access_token: STRING,
      token_type: { type: 'string', const: 'Bearer' },
      expires_in: { type: 'integer', description: 'Seconds (ACCESS_TOKEN_EXPIRES_IN).' },
      refresh_token: STRING,
      scope: STRING,
    },
    required: ['access_token', 'token_type', 'expires_in', 'refresh_token'],
  },
  OAuth2Error: {
    type: 'object',
    description: 'RFC 6749 section 5.2.',
    properties: {
      error: {
        type: 'string',
        enum: [
          'invalid_request',
          'invalid_client',
          'invalid_grant',
          'unauthorized_client',
          'unsupported_grant_type',
          'invalid_scope',
          'slow_down',
        ],
      },
      error_description: STRING,
    },
    required: ['error'],
  },
  LoginForm: {
    type: 'object',
    properties: {
      username: STRING,
      password: STRING,
      [CSRF_FIELD]: CSRF_TOKEN,
      next: { type: 'string', description: 'A path on this site to go to after logging in; default `/`.' },
    },
    required: ['username', 'password'],
  },
  LogoutForm: {
    type: 'object',
    properties: {
      [CSRF_FIELD]: CSRF_TOKEN,
      next: { type: 'string', description: 'A path on this site to go to after logging out; default `/`.' },
    },
  },
};

const bodyOf = (schema: string, types: readonly string[]): RequestBodyObject => ({
  required: true,
  content: Object.fromEntries(types.map((type) => [type, { schema: ref(schema) }])),
});
const json = (
  schema: string,
  description: string,
  example?: unknown,
  headers?: Record<string, HeaderObject>,
): ResponseObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': example === undefined ? { schema: ref(schema) } : { schema: ref(schema), example } },
});
const page = (description: string, headers?: Record<string, HeaderObject>): ResponseObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'text/html': { schema: STRING } },
});
const SET_COOKIE = (what: string): Record<string, HeaderObject> => ({
  'Set-Cookie': { description: what, schema: STRING },
});
const REDIRECT = (what: string): Record<string, HeaderObject> => ({
  Location: { description: 'The `next` path (only a path on this site), or `/`.', required: true, schema: STRING },
  ...SET_COOKIE(what),
});
const NEXT: ParameterObject = {
  name: 'next',
  in: 'query',
  required: false,
  description: 'A path on this site to return to.',
  schema: STRING,
};
const NO_STORE: Record<string, HeaderObject> = { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } };
const RETRY_AFTER: Record<string, HeaderObject> = {
  'Retry-After': { required: true, schema: { type: 'integer', minimum: 1 } },
};
const UNREACHABLE = page('The provider cannot be reached: try again shortly.', RETRY_AFTER);

/** The OAuth 2.0 token endpoint; `alias` is its path without the trailing slash, the same endpoint. */
function oauth2Token(alias: boolean): OperationObject {
  return {
    operationId: alias ? 'oauth2-token-unslashed' : 'oauth2-token',
    tags: ['authentication'],
    // No user scheme: the client authenticates by its id and secret, in the body or as HTTP Basic (RFC 6749 2.3.1).
    security: [],
    summary: alias
      ? 'The OAuth 2.0 token endpoint, without the trailing slash'
      : 'OAuth 2.0 tokens: password and refresh_token grants (RFC 6749)',
    description:
      "Answered before user authentication: HTTP Basic here carries the client's credentials, not a user's. " +
      'A refresh revokes the old pair. Failed password grants count against THROTTLE_LOGIN.',
    requestBody: bodyOf('OAuth2TokenRequest', ['application/x-www-form-urlencoded', 'application/json']),
    responses: {
      200: json('OAuth2Token', 'A new access and refresh token.', undefined, NO_STORE),
      400: json('OAuth2Error', '`invalid_request`, `invalid_grant` or `unsupported_grant_type`.', {
        error: 'invalid_grant',
        error_description: 'Invalid resource owner credentials',
      }),
      401: json(
        'OAuth2Error',
        '`invalid_client`: the client is unknown or its secret is wrong.',
        { error: 'invalid_client' },
        {
          'WWW-Authenticate': {
            description: '`Basic realm="oauth2"` when the client sent Basic, else `Bearer error="invalid_client"`.',
            required: true,
            schema: STRING,
          },
        },
      ),
      429: {
        description:
          "Too many failed password checks for this username and address: `slow_down`, with the throttle's `detail` and `wait`.",
        headers: RETRY_AFTER,
        content: {
          'application/json': {
            schema: { allOf: [ref('OAuth2Error'), ref('Throttled')] },
            example: {
              error: 'slow_down',
              error_description: 'Request was throttled. Expected available in 42 seconds.',
              detail: 'Request was throttled. Expected available in 42 seconds.',
              wait: 42,
            },
          },
        },
      },
      503: errorResponse(503),
    },
  };
}

/** The OpenID Connect sign-in's two pages (server/web/oidc.ts), with OIDC_ISSUER set. */
function oidcPaths(base: string, security: ReturnType<typeof readSecurity>, chain: ResponsesObject): PathsObject {
  return {
    [`${base}login/`]: {
      description: 'Starts the OpenID Connect sign-in (the login page\'s "Sign in with" button).',
      get: {
        operationId: 'oidc-login',
        tags: ['authentication'],
        summary: "Sign in with the OpenID Connect provider: go to the provider's authorization page",
        parameters: [NEXT],
        security,
        responses: {
          302: {
            description: "To the provider's authorization endpoint (code flow with PKCE, state and nonce).",
            headers: REDIRECT('`oidc_flow` (HttpOnly, signed, ten minutes, path the callback)'),
          },
          503: UNREACHABLE,
          ...chain,
        },
      },
    },
    [`${base}callback/`]: {
      description: 'The redirect URI to register at the provider: it signs the person in, or says why not.',
      get: {
        operationId: 'oidc-callback',
        tags: ['authentication'],
        summary: "The provider's answer: start a session",
        security,
        responses: {
          302: {
            description: 'Signed in: a new session, back to the page the sign-in started from.',
            headers: REDIRECT(`\`${SESSION_COOKIE}\` (HttpOnly) and a new \`${CSRF_COOKIE}\``),
          },
          400: page(
            'Not a valid sign-in: no flow in this browser, another state, a spent code, an answer not verified.',
          ),
          403: page(
            'Refused: the provider declined, the username belongs to another account, or the user is deactivated.',
          ),
          503: UNREACHABLE,
        },
      },
    },
  };
}

export function authPaths(options: SecurityOptions): PathsObject {
  const challenge = firstChallenge(options);
  const security = readSecurity(options);
  const chain = errorResponsesFor([401, 403], challenge);
  const auth = mountPath(options.API_AUTH_PREFIX);
  const csrfRefused = page("The CSRF token is missing or is not this session's: the form again, with the reason.");
  return {
    [mountPath(options.TOKEN_AUTH_PATH)]: {
      description: 'Allow: POST, OPTIONS. Any other method answers 405. The answer is JSON whatever the Accept header.',
      post: {
        operationId: 'token-obtain',
        tags: ['authentication'],
        summary: "The user's API token for a username and password",
        description: 'One key per user, the same on every call. Failed checks count against THROTTLE_LOGIN.',
        security,
        requestBody: bodyOf('TokenRequest', PARSED_MEDIA_TYPES),
        responses: {
          200: json('Token', "The user's key.", { token: '9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b' }),
          400: {
            description: 'A field missing or blank, or `non_field_errors` when the credentials are wrong.',
            content: {
              'application/json': {
                schema: ref('ValidationError'),
                example: { non_field_errors: ['Unable to log in with provided credentials.'] },
              },
            },
          },
          ...chain,
          ...errorResponsesFor([413, 415, 429, 503], challenge),
        },
      },
    },
    [TOKEN_PATHS[0]!]: { description: 'Allow: POST, OPTIONS. Any other method answers 405.', post: oauth2Token(false) },
    [TOKEN_PATHS[1]!]: { description: `The same endpoint as ${TOKEN_PATHS[0]}.`, post: oauth2Token(true) },
    [`${auth}login/`]: {
      description: 'The session login page of the browsable API.',
      get: {
        operationId: 'login-page',
        tags: ['authentication'],
        summary: 'The login form',
        description: `Sets the \`${CSRF_COOKIE}\` cookie the form must send back; stores no session.`,
        parameters: [NEXT],
        security,
        responses: {
          200: page('The form.', SET_COOKIE(`\`${CSRF_COOKIE}\``)),
          ...chain,
          ...errorResponsesFor([429], challenge),
        },
      },
      post: {
        operationId: 'login',
        tags: ['authentication'],
        summary: 'Log in: start a session',
        security,
        requestBody: bodyOf('LoginForm', PARSED_MEDIA_TYPES),
        responses: {
          302: {
            description: 'Logged in: a new session.',
            headers: REDIRECT(`\`${SESSION_COOKIE}\` (HttpOnly) and a new \`${CSRF_COOKIE}\``),
          },
          200: page('Wrong username or password: the form again, without saying which field was wrong.'),
          403: csrfRefused,
          429: page('Too many failed attempts: the form again, with the wait.', RETRY_AFTER),
          ...errorResponsesFor([401, 413, 415, 503], challenge),
        },
      },
    },
    ...(options.OIDC_ISSUER ? oidcPaths(`${auth}oidc/`, security, chain) : {}),
    [`${auth}logout/`]: {
      description: 'The session logout page of the browsable API. GET only asks: a link cannot end a session.',
      get: {
        operationId: 'logout-page',
        tags: ['authentication'],
        summary: 'A form that asks to log out',
        parameters: [NEXT],
        security,
        responses: {
          200: page('The confirmation form (or "not logged in").'),
          ...chain,
          ...errorResponsesFor([429], challenge),
        },
      },
      post: {
        operationId: 'logout',
        tags: ['authentication'],
        summary: 'Log out: end the session',
        parameters: [NEXT],
        security,
        requestBody: { ...bodyOf('LogoutForm', PARSED_MEDIA_TYPES), required: false },
        responses: {
          302: {
            description: 'The session ended.',
            headers: REDIRECT(`\`${SESSION_COOKIE}\` cleared and a new \`${CSRF_COOKIE}\``),
          },
          ...chain,
          ...errorResponsesFor([413, 415, 429, 503], challenge),
        },
      },
    },
  };
}
