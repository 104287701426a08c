// What the request's handlers leave for each other on res.locals, and what the app keeps on app.locals: typed once.
import type { Request, Response } from 'express';
import type { Runtime } from '../../src/runtime';
import type { Format } from './negotiate';
import type { Urls } from './urls';

/** Renders a JSON answer as the browsable HTML page (the app plugs in web/'s page; http/ knows no HTML). */
export type PageRenderer = (req: Request, res: Response, status: number, body: unknown) => Promise<string>;

/** The REST route a request matched, as the browsable page names it. */
export interface MatchedRoute {
  name: string;
  viewName: string;
  /** The procedure that answers the request ("snippets.get"): the page shows its view (server/web/views.ts). */
  procedure?: string;
}

declare module 'express-serve-static-core' {
  interface Locals {
    // app.locals
    /** What the app was built from: the database, the highlighter, the clock (src/runtime.ts). */
    runtime: Runtime;
    /** The app's route-name registry. */
    urls: Urls;
    /** The browsable API page, for answers negotiated to HTML. */
    renderPage?: PageRenderer;

    // res.locals
    /** The negotiated format; null when the Accept header allows none (406). */
    format?: Format | null;
    /** The first scheme's WWW-Authenticate challenge: with one, a refusal is 401; without, 403. */
    challenge?: string;
    /** The session's CSRF token, embedded in the page's forms. */
    csrfToken?: string;
    /** The REST route matched, for the browsable page's title and breadcrumbs. */
    route?: MatchedRoute;
    /** The route's path parameters (`{ id: '7' }`), as the facade matched them. */
    params?: Record<string, string>;
    /** The body a write sent, as the facade read it: a refused form shows it again. */
    submitted?: Record<string, unknown>;
    /** A 400's field map (DRF's validation shape), as the refusal rule made it: a refused form shows it under its fields. */
    fieldErrors?: Record<string, string[]>;
    /** The page of a paged list the browsable page shows (its limit, defaulted, its cursor and the next): its pager links. */
    listPage?: { limit: number; cursor?: string; next?: string };
  }
}
