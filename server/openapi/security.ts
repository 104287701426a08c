// The security schemes of the document, one per configured authentication scheme, in the chain's order.
import type { SecurityRequirementObject, SecuritySchemeObject } from 'openapi3-ts/oas31';
import type { Config } from '../../src/config';
import { CSRF_COOKIE, CSRF_FIELD } from '../auth/csrf';
import { TOKEN_PATHS } from '../auth/oauth2/routes';
import { SESSION_COOKIE } from '../auth/session';
import { mountPath } from '../http/urls';

/**
 * What the document depends on: the schemes, where the token endpoint and the login pages are mounted, and OIDC_ISSUER
 * (the OpenID Connect sign-in's pages are documented only where they are served, docs/authentication.md).
 */
export type SecurityOptions = Pick<Config, 'AUTH_SCHEMES' | 'TOKEN_AUTH_PATH' | 'API_AUTH_PREFIX'> &
  Partial<Pick<Config, 'OIDC_ISSUER'>>;

/** The OAuth2 token endpoint (spec: fixed path, under the `oauth2` namespace). */
const OAUTH2_TOKEN_URL = TOKEN_PATHS[0]!;

function schemeObject(name: SecurityOptions['AUTH_SCHEMES'][number], options: SecurityOptions): SecuritySchemeObject {
  switch (name) {
    case 'basic':
      return {
        type: 'http',
        scheme: 'basic',
        description: 'Username and password. Over HTTPS only; meant for testing.',
      };
    case 'token':
      // OpenAPI has no "Token" HTTP scheme: the whole header value, prefix included, is the key the client sends.
      return {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description:
          `Send \`Authorization: Token <key>\` (the literal word \`Token\`, a space, then the key). ` +
          `POST username and password to \`${mountPath(options.TOKEN_AUTH_PATH)}\` to get the key.`,
      };
    case 'oauth2':
      return {
        type: 'oauth2',
        description:
          'OAuth 2.0 access token sent as `Authorization: Bearer <token>`; the client id and secret come from an administrator.',
        flows: { password: { tokenUrl: OAUTH2_TOKEN_URL, refreshUrl: OAUTH2_TOKEN_URL, scopes: {} } },
      };
    case 'session':
      return {
        type: 'apiKey',
        in: 'cookie',
        name: SESSION_COOKIE,
        description:
          'The session made by the login page (`/api-auth/login/` by default). Writes (POST, PUT, PATCH, DELETE) also need ' +
          `the CSRF token: the \`${CSRF_COOKIE}\` cookie (readable by scripts; set by the login page, replaced at login and ` +
          `logout, valid only with its own session), sent back as is in the \`X-CSRFToken\` header or the ` +
          `\`${CSRF_FIELD}\` form field. Without it a write answers 403 \`CSRF Failed: …\`.`,
      };
    case 'oauth1':
      // RFC 5849 registers "OAuth" as an HTTP authentication scheme; OpenAPI has no flow object for 1.0a.
      return {
        type: 'http',
        scheme: 'OAuth',
        description: 'OAuth 1.0a signed requests (signature validation only; no authorization flow).',
      };
  }
}

export function securitySchemes(options: SecurityOptions): Record<string, SecuritySchemeObject> {
  return Object.fromEntries(options.AUTH_SCHEMES.map((name) => [name, schemeObject(name, options)]));
}

/** Any one configured scheme authenticates a write (the chain tries them in order). */
export function writeSecurity(options: SecurityOptions): SecurityRequirementObject[] {
  return options.AUTH_SCHEMES.map((name) => ({ [name]: [] }));
}

/** Reads are open to anonymous requesters (`{}`); credentials are optional, but checked when sent. */
export function readSecurity(options: SecurityOptions): SecurityRequirementObject[] {
  return [{}, ...writeSecurity(options)];
}

/** The WWW-Authenticate challenge of each scheme that has one (DESIGN §5); the chain's first scheme decides 401 or 403. */
const CHALLENGES: Partial<Record<SecurityOptions['AUTH_SCHEMES'][number], string>> = {
  basic: 'Basic realm="api"',
  token: 'Token',
  oauth2: 'Bearer',
};

export function firstChallenge(options: SecurityOptions): string | undefined {
  const first = options.AUTH_SCHEMES[0];
  return first ? CHALLENGES[first] : undefined;
}
