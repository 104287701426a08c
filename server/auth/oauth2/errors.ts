// Token endpoint errors as RFC 6749 5.2 words them (oauth2orize's defaults answer 403 and 501 where the RFC says 400).
import type { ErrorRequestHandler, Response } from 'express';

const STATUS: Record<string, number> = { invalid_client: 401 };

/**
 * A 401 names the scheme the client used (RFC 6749 5.2: Basic when it sent Basic credentials); a client that sent
 * its credentials in the body gets the reference's `Bearer error="invalid_client"`.
 */
export function tokenError(res: Response, error: string, description?: string): void {
  const status = STATUS[error] ?? 400;
  res.status(status).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  if (status === 401)
    res.set(
      'WWW-Authenticate',
      /^\s*basic\b/i.test(res.req.headers.authorization ?? '') ? 'Basic realm="oauth2"' : `Bearer error="${error}"`,
    );
  res.json(description ? { error, error_description: description } : { error });
}

/** oauth2orize's TokenError (and body-parser's errors) in the RFC shape; never a 500 for a bad request. */
export const tokenErrorHandler: ErrorRequestHandler = (err, _req, res, next) => {
  if (res.headersSent) return next(err);
  const code = typeof err?.code === 'string' && /^[a-z_]+$/.test(err.code) ? err.code : undefined;
  if (code && err.name === 'TokenError') return tokenError(res, code, err.message);
  if (typeof err?.status === 'number' && err.status < 500)
    return tokenError(res, 'invalid_request', 'The request body could not be read.');
  next(err);
};
