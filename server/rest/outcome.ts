// Translates a procedure's outcome into the REST answer: success statuses, Link; a refusal by the one rule.
import type { Response } from 'express';
import { refuse } from '../http/refuse';
import { sendJson, sendNoContent, sendText } from '../http/respond';
import { etagOf } from '../../src/snippets/preconditions';
import { urls } from '../http/urls';
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
    // The JSON representation of a snippet read, created, saved or restored names its revision (src/snippets/preconditions.ts); the browsable
    // page, another representation, keeps a validator of its own bytes.
    if (outcome.revision !== undefined && res.locals.format === 'json') res.setHeader('ETag', etagOf(outcome.revision));
    if (status === 201 && outcome.revision !== undefined) {
      // A snippet's create names what it made (RFC 9110 §15.3.2); a browser's form lands on the new snippet's page
      // (§15.4.4). Other creates (a personal token, whose key its page shows once) answer as they are.
      const location = urls(res.req).reverse('snippet-detail', { id: (outcome.data as { id: number }).id });
      if (res.locals.format === 'html') return res.redirect(303, location);
      res.setHeader('Location', `${res.req.protocol}://${res.req.get('host')}${location}`);
    }
    if (!procedure.paged) return sendJson(res, status, outcome.data);
    const page = outcome.data as Page;
    if (page.next) res.set('Link', nextLink(res, page.next));
    return sendJson(res, status, page.items);
  }
  refuse(res, outcome.error);
}
