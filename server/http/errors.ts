// The last handlers: 404 for unknown paths and one translation of any thrown error to a JSON answer.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { NOT_FOUND } from '../../src/errors';
import { isStoreBusy, STORE_BUSY, STORE_BUSY_RETRY_AFTER } from '../../src/store/errors';
import { HttpError } from './http-error';
import { sendError, sendJson } from './respond';

export const notFoundHandler: RequestHandler = (_req, res) => sendError(res, 404, NOT_FOUND);

/**
 * body-parser's errors (size, encoding, aborted), ours and a busy store's (503); anything else is a 500 that is logged,
 * never leaked: handed to the access log (res.err), whose record of the request then carries the error and its stack.
 */
export function errorHandler(): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    if (res.headersSent) return res.end();
    if (err instanceof HttpError) return sendJson(res, err.status, err.body, err.headers);
    const status = typeof err?.status === 'number' ? err.status : 500;
    if (err?.type === 'entity.too.large') return sendError(res, 413, 'Request body is too large.');
    if (status >= 400 && status < 500 && err?.expose) return sendError(res, status, String(err.message));
    // The session store, the throttle counters or an authentication lookup met a store busy past its bound.
    if (isStoreBusy(err)) return sendError(res, 503, STORE_BUSY, { 'Retry-After': String(STORE_BUSY_RETRY_AFTER) });
    res.err = err instanceof Error ? err : new Error(String(err));
    return sendError(res, 500, 'A server error occurred.');
  };
}
