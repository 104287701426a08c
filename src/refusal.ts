// The one refusal rule: every error the service raises, as the answer it gets (status, headers and JSON body), on REST
// paths, on the browsable pages and at /trpc. A new refusal is taught here once.
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { NOT_AUTHENTICATED, SERVER_ERROR } from './errors';
import { DISK_FULL, isDiskFull, RETRY_AFTER_SECONDS, unavailableDetail } from './store/errors';

/** An error that already knows its answer: status, a JSON body (`detail` or a field map), headers. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${status}`);
  }

  static detail(status: number, detail: string, headers?: Record<string, string>): HttpError {
    return new HttpError(status, { detail }, headers);
  }
}

/** Credentials were present but wrong: the request stops at once (401 or 403, by the first scheme). */
export class AuthenticationFailed extends Error {}

/** Authenticated, but the request may not go on (a session write without its CSRF token): always 403. */
export class PermissionDenied extends Error {}

/** Over a throttle's rate (requests, or failed password checks): 429 with Retry-After. */
export class Throttled extends Error {
  constructor(readonly wait: number) {
    super(`throttled for ${wait} s`);
  }
}

/**
 * A save that would take its owner's stored revisions past USER_QUOTA_BYTES: 413, the request's content being more
 * than the service takes from this user (RFC 9110 §15.5.14). Not 507: that says the server is out of space, a 5xx a
 * client may retry and a monitor counts as the service's failure, where this one is the user's to fix.
 */
export class OverQuota extends Error {
  constructor(
    readonly quota: number,
    readonly stored: number,
  ) {
    super(`over the storage quota of ${quota} bytes`);
  }
}

/** The words of a quota refusal: the figures, and what frees space. */
export function overQuotaDetail(quota: number, stored: number): string {
  return `This save would take your snippets past your storage quota of ${quota} bytes (they hold ${stored} bytes now). Delete snippets you no longer need to free space.`;
}

/** A method the path does not serve: 405 with the Allow header of the methods it does. */
export const methodNotAllowed = (method: string, allow: readonly string[]) =>
  HttpError.detail(405, `Method "${method}" not allowed.`, { Allow: allow.join(', ') });

/** The spec's words for a refused request; the OAuth 2.0 token endpoint puts them beside its RFC fields. */
export function throttledDetail(wait: number): string {
  return `Request was throttled. Expected available in ${wait} seconds.`;
}

export interface Refusal {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** A 500's cause, for the log (never in the answer). */
  fault?: unknown;
  /** The body is a 400's field map (the browsable page draws it under the form's fields). */
  fields?: boolean;
}

/** The statuses of the procedures' error codes that are refusals (tRPC's own table, less the ones this rule words). */
const STATUS_OF: Partial<Record<TRPCError['code'], number>> = {
  BAD_REQUEST: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE_CONTENT: 422,
  TOO_MANY_REQUESTS: 429,
};

/** tRPC's code for each status a refusal can have, for its envelope on /trpc. */
const TRPC_CODE: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * The tRPC code a refusal's envelope carries: the error's own while the rule kept its status (a parse error stays
 * PARSE_ERROR), else the code of the status the rule gave it (UNAUTHORIZED answered 403 is FORBIDDEN).
 */
export function trpcCodeOf(status: number, err?: unknown): TRPC_ERROR_CODE_KEY {
  if (err instanceof TRPCError && getHTTPStatusCodeFromError(err) === status) return err.code;
  return TRPC_CODE[status] ?? 'INTERNAL_SERVER_ERROR';
}

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

const detail = (status: number, text: string, headers: Record<string, string> = {}): Refusal => ({
  status,
  headers,
  body: { detail: text },
});

/** Not (validly) authenticated: 401 with the first scheme's challenge; without one, 403 (spec, "401 versus 403"). */
const notAuthenticated = (text: string, challenge: string | undefined) =>
  challenge ? detail(401, text, { 'WWW-Authenticate': challenge }) : detail(403, text);

/**
 * The answer to `err`. `challenge` is the first authentication scheme's WWW-Authenticate value, if it has one. A store
 * busy past its bound or out of reach is the service's momentary trouble: 503 with Retry-After. Anything unforeseen is
 * a 500 whose own text (SQL, addresses) stays in the log.
 */
export function refusalOf(err: unknown, challenge: string | undefined): Refusal {
  if (err instanceof TRPCError) {
    if (err.cause instanceof HttpError || err.cause instanceof Throttled) return refusalOf(err.cause, challenge);
    const issues = (err.cause as { issues?: Issue[] } | undefined)?.issues;
    if (err.code === 'BAD_REQUEST' && Array.isArray(issues))
      return { status: 400, headers: {}, body: fieldErrors(issues), fields: true };
    if (err.code === 'UNAUTHORIZED') return notAuthenticated(err.message || NOT_AUTHENTICATED, challenge);
    if (err.code === 'SERVICE_UNAVAILABLE')
      return detail(503, err.message, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
    const status = STATUS_OF[err.code];
    if (status) return detail(status, err.message);
    if (err.cause) return refusalOf(err.cause, challenge);
    return { ...detail(500, SERVER_ERROR), fault: err };
  }
  if (err instanceof HttpError) return { status: err.status, headers: err.headers, body: err.body };
  if (err instanceof AuthenticationFailed) return notAuthenticated(err.message, challenge);
  if (err instanceof PermissionDenied) return detail(403, err.message);
  if (err instanceof OverQuota) return detail(413, overQuotaDetail(err.quota, err.stored));
  if (err instanceof Throttled)
    return {
      status: 429,
      headers: { 'Retry-After': String(err.wait) },
      body: { detail: throttledDetail(err.wait), wait: err.wait },
    };
  // body-parser's errors: a body over the limit, a bad encoding, an aborted upload.
  const http = err as { status?: unknown; expose?: unknown; type?: unknown; message?: unknown } | undefined;
  if (http?.type === 'entity.too.large') return detail(413, 'Request body is too large.');
  if (typeof http?.status === 'number' && http.status >= 400 && http.status < 500 && http.expose)
    return detail(http.status, String(http.message));
  // 507 Insufficient Storage (RFC 4918 §11.5), no Retry-After: space comes back when an operator or a delete frees it.
  if (isDiskFull(err)) return detail(507, DISK_FULL);
  const unavailable = unavailableDetail(err);
  if (unavailable) return detail(503, unavailable, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
  return { ...detail(500, SERVER_ERROR), fault: err };
}
