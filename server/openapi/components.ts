// The shared pieces of the document: the error shapes the REST facade answers and the responses that use them.
import type { ResponseObject, SchemaObject } from 'openapi3-ts/oas31';
import { NO_PERMISSION, NOT_AUTHENTICATED, NOT_FOUND } from '../../src/errors';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: SchemaObject | { $ref: string }, example: unknown) => ({
  'application/json': { schema, example },
});

export const ERROR_SCHEMAS: Record<string, SchemaObject> = {
  // src/refusal.ts: every refusal but validation is this shape.
  Error: {
    type: 'object',
    properties: { detail: { type: 'string' } },
    required: ['detail'],
  },
  // src/refusal.ts, Throttled.
  Throttled: {
    type: 'object',
    properties: { detail: { type: 'string' }, wait: { type: 'integer', minimum: 1 } },
    required: ['detail', 'wait'],
  },
  // src/refusal.ts fieldErrors: DRF's validation shape.
  ValidationError: {
    type: 'object',
    description:
      'Field name -> the messages for that field, in schema order; `non_field_errors` for the body as a whole.',
    properties: { non_field_errors: { type: 'array', items: { type: 'string' } } },
    additionalProperties: { type: 'array', items: { type: 'string' } },
  },
};

const RETRY_AFTER = {
  description: 'Seconds to wait before trying again.',
  required: true,
  schema: { type: 'integer' as const, minimum: 1 },
};

const detail = (description: string, example: string): ResponseObject => ({
  description,
  content: json(ref('Error'), { detail: example }),
});

/**
 * The error responses by status, kept once under components.responses; operations pick those that can happen to them.
 * `challenge` is the first configured scheme's WWW-Authenticate value; without one no request is answered 401.
 */
export function errorResponses(challenge: string | undefined): Record<number, ResponseObject> {
  const responses: Record<number, ResponseObject> = {
    400: {
      // A body that cannot be parsed at all is refused with `detail`; one that parses but fails validation with the field map.
      description: 'Invalid input: a field map for validation errors, `detail` for an unparsable body.',
      content: json(
        { oneOf: [ref('ValidationError'), ref('Error')] },
        { code: ['This field is required.'], style: ['"nope" is not a valid choice.'] },
      ),
    },
    401: {
      description:
        'Credentials missing (on a write) or wrong. Sent only when the first configured scheme has a challenge; it is named in WWW-Authenticate.',
      headers: {
        'WWW-Authenticate': {
          description: "The first configured scheme's challenge.",
          required: true,
          schema: { type: 'string', example: challenge },
        },
      },
      content: json(ref('Error'), { detail: NOT_AUTHENTICATED }),
    },
    403: detail(
      'Not allowed: a non-owner writing, or missing/wrong credentials when the first scheme has no challenge (session). Never carries WWW-Authenticate.',
      NO_PERMISSION,
    ),
    404: detail('No such record.', NOT_FOUND),
    405: {
      description: 'The path does not offer this method; Allow lists the ones it does.',
      headers: { Allow: { required: true, schema: { type: 'string' } } },
      content: json(ref('Error'), { detail: 'Method "PATCH" not allowed.' }),
    },
    406: detail(
      'The Accept header allows neither JSON nor the browsable HTML page.',
      'Could not satisfy the request Accept header.',
    ),
    412: detail(
      'If-Match names no current version of the snippet: it changed meanwhile (or is gone). Nothing was changed.',
      'The snippet has changed since the version named in If-Match.',
    ),
    413: detail(
      "The request body is larger than the service reads; or the save would take the owner's snippets past their storage quota (USER_QUOTA_BYTES), and nothing was stored.",
      'Request body is too large.',
    ),
    415: detail(
      'The body is not JSON, form-urlencoded or multipart/form-data.',
      'Unsupported media type "text/plain" in request.',
    ),
    422: detail(
      'The two revisions differ too much to be diffed within the highlighting deadline.',
      'These revisions differ too much to be diffed within the deadline; diff two revisions closer to each other.',
    ),
    429: {
      description:
        "Throttled: too many requests for the requester's rate, or too many failed password checks. `wait` is Retry-After's seconds.",
      headers: { 'Retry-After': RETRY_AFTER },
      content: json(ref('Throttled'), { detail: 'Request was throttled. Expected available in 42 seconds.', wait: 42 }),
    },
    507: detail(
      "The database's disk is full: nothing was saved. Reads, sign-ins and deletes still work (docs/operations.md, A full disk).",
      "The database's disk is full: nothing was saved. Reading, signing in and deleting snippets still work; try again once space is freed.",
    ),
    503: {
      description: 'The database is busy or not answering: try again after Retry-After seconds.',
      headers: { 'Retry-After': RETRY_AFTER },
      content: json(ref('Error'), { detail: 'The database is busy at the moment; try again shortly.' }),
    },
  };
  if (!challenge) delete responses[401];
  return responses;
}

/** The component name of an error response ("Error404"). */
export const errorResponseName = (status: number) => `Error${status}`;

/** A reference to the error response for `status`. */
export const errorResponse = (status: number) => ({ $ref: `#/components/responses/${errorResponseName(status)}` });

/** References to the error responses of `statuses`, without 401 when the first scheme has no challenge (nothing answers it). */
export function errorResponsesFor(statuses: number[], challenge: string | undefined): Record<number, { $ref: string }> {
  return Object.fromEntries(statuses.filter((s) => s !== 401 || challenge).map((s) => [s, errorResponse(s)]));
}
