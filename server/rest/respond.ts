// Writing responses: JSON bodies and the `detail` error shape every error uses.
import type { Response } from 'express';

export type Headers = Record<string, string>;

/** Sends a JSON body already serialised (the fast path for the adapter's output). */
export function sendJsonText(res: Response, status: number, json: string, headers: Headers = {}): void {
  res.status(status).set(headers).type('application/json').send(json);
}

export function sendJson(res: Response, status: number, body: unknown, headers: Headers = {}): void {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

export function sendError(res: Response, status: number, detail: string, headers: Headers = {}): void {
  sendJson(res, status, { detail }, headers);
}

/** 204: no body and no Content-Type. */
export function sendNoContent(res: Response, headers: Headers = {}): void {
  res.status(204).set(headers).end();
}
