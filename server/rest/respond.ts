// Writing API responses in the negotiated format: JSON, or the browsable HTML page for browsers.
import type { Response } from 'express';
import { renderApiPage } from '../web/api-page';

export type Headers = Record<string, string>;

function wantsHtml(res: Response): boolean {
  return res.locals.format === 'html';
}

/** Sends a JSON body already serialised (the fast path for the adapter's output). */
export function sendJsonText(res: Response, status: number, json: string, headers: Headers = {}): void {
  res.status(status).set(headers);
  if (wantsHtml(res)) {
    void renderApiPage(res.req, res, status, JSON.parse(json)).then(
      (page) => res.type('html').send(page),
      // A page that cannot be rendered still answers, in JSON.
      () => res.type('application/json').send(json),
    );
    return;
  }
  res.type('application/json').send(json);
}

export function sendJson(res: Response, status: number, body: unknown, headers: Headers = {}): void {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

export function sendError(res: Response, status: number, detail: string, headers: Headers = {}): void {
  sendJson(res, status, { detail }, headers);
}

/** 204: no body and no Content-Type, whatever the format. */
export function sendNoContent(res: Response, headers: Headers = {}): void {
  res.status(204).set(headers).end();
}
