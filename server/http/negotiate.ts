// Content negotiation for API paths: JSON by default, the browsable page for browsers, ?format= overrides.
import type { Request, RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import { HttpError } from '../../src/refusal';

export type Format = 'json' | 'html';

const OFFERED = ['application/json', 'text/html'];

/** `application/json; indent=4` still accepts our JSON: only the q parameter takes part in the choice. */
function withoutMediaParams(accept: string): string {
  return accept
    .split(',')
    .map((range) => {
      const [type, ...params] = range.split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return q ? `${type};${q.trim()}` : type;
    })
    .join(',');
}

/** The choice for each Accept header seen: clients send few distinct ones, and parsing one is most of the cost. */
const byAccept = new LRUCache<string, Format | 'none'>({ max: 500 });

function fromAccept(accept: string | undefined): Format | null {
  // The common API-client cases decided without parsing.
  if (!accept || accept === '*/*' || accept === 'application/json') return 'json';
  let format = byAccept.get(accept);
  if (format === undefined) {
    const best = new Negotiator({ headers: { accept: withoutMediaParams(accept) } }).mediaType(OFFERED);
    format = best === 'text/html' ? 'html' : best ? 'json' : 'none';
    byAccept.set(accept, format);
  }
  return format === 'none' ? null : format;
}

/** The format to answer in, or null when the Accept header allows none of them (406). */
export function negotiate(req: Request): Format | null {
  const format = req.originalUrl.includes('?') ? new URL(req.originalUrl, 'http://x').searchParams.get('format') : null;
  if (format === 'json') return 'json';
  if (format === 'api') return 'html';
  if (format !== null) return null;
  return fromAccept(req.headers.accept);
}

/** Records the negotiated format for the responders; a 406 is answered by the API handlers, in JSON. */
export const negotiation: RequestHandler = (req, res, next) => {
  res.locals.format = negotiate(req);
  res.vary('Accept');
  next();
};

/** 406, answered in JSON since no format the client asked for is offered. */
export function notAcceptable(res: Response): HttpError {
  res.locals.format = 'json';
  return HttpError.detail(406, 'Could not satisfy the request Accept header.');
}
