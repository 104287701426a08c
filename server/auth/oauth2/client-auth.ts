// OAuth 2.0 client authentication at the token endpoint: client_id/client_secret in the body, or HTTP Basic.
import type { RequestHandler } from 'express';
import type { Store } from '../../../src/store/database';
import { authenticateClient } from '../../../src/auth/oauth2';
import { tokenError } from './errors';

function basicCredentials(header: string | undefined): [string, string] | undefined {
  const [scheme, encoded, extra] = (header ?? '').trim().split(/\s+/);
  if (scheme?.toLowerCase() !== 'basic' || !encoded || extra) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  // RFC 6749 2.3.1: both parts are form-urlencoded inside the Basic credentials.
  return colon < 0
    ? undefined
    : [decodeURIComponent(decoded.slice(0, colon)), decodeURIComponent(decoded.slice(colon + 1))];
}

export const authenticateOAuthClient =
  (store: Store): RequestHandler =>
  async (req, res, next) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const fromBody =
        typeof body.client_id === 'string' && typeof body.client_secret === 'string'
          ? [body.client_id, body.client_secret]
          : undefined;
      let credentials: [string, string] | undefined;
      try {
        credentials = basicCredentials(req.headers.authorization) ?? (fromBody as [string, string] | undefined);
      } catch {
        credentials = undefined; // malformed %-escapes: no credentials
      }
      const client = credentials && (await authenticateClient(store, credentials[0], credentials[1]));
      if (!client) return tokenError(res, 'invalid_client'); // the reference's exact body: {"error": "invalid_client"}
      req.user = client;
      next();
    } catch (err) {
      next(err);
    }
  };
