// Translates a procedure's outcome into the REST answer: statuses, the `detail` shape, validation field maps.
import type { Response } from 'express';
import type { TRPCError } from '@trpc/server';
import { denyUnauthenticated } from '../auth/chain';
import { HttpError } from './http-error';
import { sendJson, sendJsonText, sendNoContent } from './respond';
import type { Outcome } from './invoke';
import { nextLink } from './stream-list';

/** The success status of each method (the OpenAPI document reads it too). */
export const SUCCESS_STATUS: Record<string, number> = { POST: 201, DELETE: 204 };
const STATUS_OF: Partial<Record<TRPCError['code'], number>> = {
  NOT_FOUND: 404,
  FORBIDDEN: 403,
  METHOD_NOT_SUPPORTED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
};

interface Issue {
  path?: readonly PropertyKey[];
  message: string;
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

export function writeOutcome(res: Response, method: string, outcome: Outcome): void {
  if (outcome.ok) {
    const status = SUCCESS_STATUS[method] ?? 200;
    if (status === 204) return sendNoContent(res);
    if (outcome.context.page.next) res.set('Link', nextLink(res.req, outcome.context.page.next));
    return sendJsonText(res, status, outcome.json ?? 'null');
  }
  const { error } = outcome;
  const issues = (error.cause as { issues?: Issue[] } | undefined)?.issues;
  if (error.code === 'BAD_REQUEST' && Array.isArray(issues)) return sendJson(res, 400, fieldErrors(issues));
  if (error.code === 'UNAUTHORIZED') return denyUnauthenticated(res, error.message);
  const status = STATUS_OF[error.code];
  if (status) return sendJson(res, status, { detail: error.message });
  throw error.cause instanceof HttpError ? error.cause : error;
}
