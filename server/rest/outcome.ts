// Translates a procedure's outcome into the REST answer: statuses, the `detail` shape, validation field maps, Link.
import type { Response } from 'express';
import type { TRPCError } from '@trpc/server';
import { HttpError } from '../http/http-error';
import { denyUnauthenticated } from '../http/refuse';
import { sendJson, sendJsonText, sendNoContent, sendText } from '../http/respond';
import { etagOf } from '../../src/preconditions';
import type { Outcome } from './call';
import type { RoutedProcedure } from './routes';

/** The success status of each method (the OpenAPI document reads it too). */
export const SUCCESS_STATUS: Record<string, number> = { POST: 201, DELETE: 204 };
const STATUS_OF: Partial<Record<TRPCError['code'], number>> = {
  NOT_FOUND: 404,
  FORBIDDEN: 403,
  METHOD_NOT_SUPPORTED: 405,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE_CONTENT: 422,
  TOO_MANY_REQUESTS: 429,
};

interface Issue {
  path?: readonly PropertyKey[];
  message: string;
}

/** A page of a list, as paged procedures return it. */
export interface Page {
  items: unknown[];
  next?: string;
}

/** `{"field": ["message", …]}`, fields in the order the schema declares them (DRF's validation shape). */
export function fieldErrors(issues: readonly Issue[]): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path?.length ? String(issue.path[0]) : 'non_field_errors';
    (map[key] ??= []).push(issue.message);
  }
  return map;
}

/** RFC 8288 Link to the next page, keeping the request's other query parameters. */
function nextLink(res: Response, cursor: string): string {
  const { req } = res;
  const url = new URL(req.originalUrl, `${req.protocol}://${req.get('host')}`);
  url.searchParams.set('cursor', cursor);
  return `<${url.href}>; rel="next"`;
}

export function writeOutcome(res: Response, method: string, procedure: RoutedProcedure, outcome: Outcome): void {
  if (outcome.ok) {
    const status = procedure.status ?? SUCCESS_STATUS[method] ?? 200;
    if (status === 204) return sendNoContent(res);
    // A text answer (a diff) as it is; for a browser, on the browsable page.
    if (procedure.text) return res.locals.format === 'html' ? sendJson(res, status, outcome.data) : sendText(res, status, procedure.text, outcome.data as string);
    // The JSON representation of a snippet read or restored names its revision (src/preconditions.ts); the browsable
    // page, another representation, keeps a validator of its own bytes.
    if (outcome.revision !== undefined && res.locals.format === 'json') res.setHeader('ETag', etagOf(outcome.revision));
    if (!procedure.paged) return sendJsonText(res, status, JSON.stringify(outcome.data) ?? 'null');
    const page = outcome.data as Page;
    if (page.next) res.set('Link', nextLink(res, page.next));
    return sendJsonText(res, status, JSON.stringify(page.items));
  }
  const { error } = outcome;
  const issues = (error.cause as { issues?: Issue[] } | undefined)?.issues;
  if (error.code === 'BAD_REQUEST' && Array.isArray(issues)) return sendJson(res, 400, fieldErrors(issues));
  if (error.code === 'UNAUTHORIZED') return denyUnauthenticated(res, error.message);
  const status = STATUS_OF[error.code];
  if (status) return sendJson(res, status, { detail: error.message });
  throw error.cause instanceof HttpError ? error.cause : error;
}
