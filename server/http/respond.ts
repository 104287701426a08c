// Writing API responses in the negotiated format: JSON, or (through the app's page renderer) the browsable HTML page.
import type { Response } from 'express';
import etag from 'etag';
import fresh from 'fresh';

export type Headers = Record<string, string>;

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Ends the response with a text body, as Express's `res.send` would, in fewer steps (it is on every answer):
 * `Content-Length`, an `ETag` (weak, of the body, unless one is set already) on a successful GET or HEAD and 304 when `If-None-Match` matches it, no body for
 * HEAD. The body goes to `end()` as a string, so Node writes the head and the body in one syscall.
 */
export function sendText(res: Response, status: number, contentType: string, body: string): void {
  const { method, headers } = res.req;
  res.statusCode = status;
  if ((method === 'GET' || method === 'HEAD') && status >= 200 && status < 300) {
    // A validator set by the caller (a snippet's revision, strong) is kept; otherwise one of the body's bytes.
    const tag = (res.getHeader('ETag') as string | undefined) ?? etag(body, { weak: true });
    res.setHeader('ETag', tag);
    if (fresh(headers, { etag: tag })) {
      res.statusCode = 304;
      return void res.end();
    }
  }
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(method === 'HEAD' ? undefined : body);
}

/** The body as JSON, or, negotiated to HTML, the browsable page rendered from the value itself (never parsed back). */
export function sendJson(res: Response, status: number, body: unknown, headers: Headers = {}): void {
  for (const name in headers) res.setHeader(name, headers[name]!);
  const renderPage = res.app.locals.renderPage;
  if (res.locals.format === 'html' && renderPage) {
    void renderPage(res.req, res, status, body).then(
      (page) => res.status(status).type('html').send(page),
      // A page that cannot be rendered still answers, in JSON.
      () => sendText(res, status, JSON_TYPE, JSON.stringify(body) ?? 'null'),
    );
    return;
  }
  sendText(res, status, JSON_TYPE, JSON.stringify(body) ?? 'null');
}

/** 204: no body and no Content-Type, whatever the format. */
export function sendNoContent(res: Response, headers: Headers = {}): void {
  res.status(204).set(headers).end();
}
