// The last handlers: 404 for unknown paths, and every thrown error answered by the one refusal rule.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { NOT_FOUND } from '../../src/errors';
import { HttpError } from '../../src/refusal';
import { refuse } from './refuse';

export const notFoundHandler: RequestHandler = (_req, res) => refuse(res, HttpError.detail(404, NOT_FOUND));

/**
 * Ours, body-parser's, a procedure's and a store's trouble (503); anything else is a 500 that is logged, never leaked:
 * handed to the access log (res.err), whose record of the request then carries the error and its stack.
 */
export function errorHandler(): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    if (res.headersSent) return res.end();
    refuse(res, err);
  };
}
