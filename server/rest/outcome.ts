// Translates a procedure's outcome into the REST answer: success statuses, Link; a refusal by the one rule.
import type { Response } from 'express';
import { refuse } from '../http/refuse';
import { sendJson, sendNoContent, sendText } from '../http/respond';
import { etagOf } from '../../src/snippets/preconditions';
import type { Outcome } from './call';
import type { RoutedProcedure } from './routes';

/** The success status of each method (the OpenAPI document reads it too). */
export const SUCCESS_STATUS: Record<string, number> = { POST: 201, DELETE: 204 };

/** A page of a list, as paged procedures return it. */
export interface Page {
  items: unknown[];
  next?: string;
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
    if (procedure.text)
      return res.locals.format === 'html'
        ? sendJson(res, status, outcome.data)
        : sendText(res, status, procedure.text, outcome.data as string);
    // The JSON representation of a snippet read, created or restored names its revision (src/snippets/preconditions.ts); the browsable
    // page, another representation, keeps a validator of its own bytes.
    if (outcome.revision !== undefined && res.locals.format === 'json') res.setHeader('ETag', etagOf(outcome.revision));
    if (!procedure.paged) return sendJson(res, status, outcome.data);
    const page = outcome.data as Page;
    if (page.next) res.set('Link', nextLink(res, page.next));
    return sendJson(res, status, page.items);
  }
  refuse(res, outcome.error);
}
