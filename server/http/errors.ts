// The last handlers: 404 for unknown paths and one translation of any thrown error to a JSON answer.
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { NOT_FOUND, SERVER_ERROR } from '../../src/errors';
import { RETRY_AFTER_SECONDS, unavailableDetail } from '../../src/store/errors';
import { HttpError } from './http-error';
import { sendError, sendJson } from './respond';

export const notFoundHandler: RequestHandler = (_req, res) => sendError(res, 404, NOT_FOUND);

/** The 503 of a store that is busy past its bound or out of reach: the same answer on every path. */
export function sendUnavailable(req: Request, res: Response, detail: string): void {
  // Nothing the failed request began is kept: no session it started (express-session would send its cookie on the
  // way out), no cookie set before the failure.
  delete (req as { session?: unknown }).session;
  res.removeHeader('Set-Cookie');
  sendError(res, 503, detail, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
}

/**
 * body-parser's errors (size, encoding, aborted), ours and a store's trouble (503); anything else is a 500 that is
 * logged, never leaked: handed to the access log (res.err), whose record of the request then carries the error and
 * its stack.
 */
export function errorHandler(): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return res.end();
    if (err instanceof HttpError) return sendJson(res, err.status, err.body, err.headers);
    const status = typeof err?.status === 'number' ? err.status : 500;
    if (err?.type === 'entity.too.large') return sendError(res, 413, 'Request body is too large.');
    if (status >= 400 && status < 500 && err?.expose) return sendError(res, status, String(err.message));
    // The session store, the throttle counters, an authentication lookup or a procedure met a store busy past its
    // bound, out of reach, silent past its deadline, or a full disk.
    const unavailable = unavailableDetail(err);
    if (unavailable) return sendUnavailable(req, res, unavailable);
    res.err = err instanceof Error ? err : new Error(String(err));
    return sendError(res, 500, SERVER_ERROR);
  };
}
