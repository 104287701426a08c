// The access log: one record per request when its answer is over, the X-Request-Id of every answer, and the request's
// logger (its records carry that id).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express, Request, RequestHandler } from 'express';
import type { Logger } from '../src/log';
import { whenAnswerOver, writeOutcome, type Gone } from './answer-over';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request's id: its X-Request-Id, and the `reqId` of every record about it. */
    id: string;
    /** The service's logger, its records carrying the request's `reqId`: made on first use (requestLoggers). */
    log: Logger;
  }
  interface ServerResponse {
    /** The error an answer was made for (the error handler's): the access record is then `error`, with its stack. */
    err?: unknown;
  }
}

/** An id a proxy may hand us: short, and nothing a log reader or a header could choke on. */
const FIT_ID = /^[A-Za-z0-9._:-]{1,200}$/;
/** Load balancers poll these every few seconds: their records are debug, not info. */
const PROBES = new Set(['/healthz', '/readyz']);

/** Whether the connection's peer is a proxy TRUST_PROXY names (Express's compiled `trust proxy fn`, hop 0). */
export type TrustsPeer = (req: IncomingMessage) => boolean;

/** The incoming X-Request-Id when a trusted proxy sent a fit one, else a fresh UUID; set on the answer either way. */
function requestId(trustsPeer: TrustsPeer) {
  return (req: IncomingMessage, res: ServerResponse): string => {
    const sent = req.headers['x-request-id'];
    const id = typeof sent === 'string' && FIT_ID.test(sent) && trustsPeer(req) ? sent : randomUUID();
    res.setHeader('X-Request-Id', id);
    return id;
  };
}

/** The path alone: a query string may carry an access_token (Bearer allows it), so it is never logged. */
const pathOf = (req: IncomingMessage) => {
  // originalUrl: a mounted router (/trpc) strips its mount point from req.url while it answers.
  const url = (req as Partial<Request>).originalUrl ?? req.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/**
 * Bytes sent on the connection for this answer, headers included (nginx's $bytes_sent): a streamed list has no
 * Content-Length, and counting its writes cost more than the rest of the record (measured, docs/operations.md "Logs").
 */
const SENT_BEFORE = Symbol('sentBefore');
/** Express's res.locals, there from its first middleware on. */
const localsOf = (res: ServerResponse) => (res as ServerResponse & { locals: Record<symbol, number> }).locals;
/** The request's socket: the response lets go of its own when it finishes, before the record is written. */
const sentBefore = (req: IncomingMessage, res: ServerResponse) =>
  (localsOf(res)[SENT_BEFORE] = req.socket.bytesWritten);
const sent = (req: IncomingMessage, res: ServerResponse) => req.socket.bytesWritten - (localsOf(res)[SENT_BEFORE] ?? 0);

/** nginx's status for a request whose client closed the connection before its answer was sent. */
export const CLIENT_CLOSED = 499;

/**
 * The fields of an access record, its request id first. A request whose client went
 * away is `aborted`: its status is 499 when no answer had begun (else the status of the answer cut short), `answer`
 * the status of the answer the service made for no one, and for a write `write` what became of it.
 */
function fields(req: IncomingMessage, res: ServerResponse, path: string, ms: number, gone: Gone | undefined) {
  const userId = (req as Request).requester?.user?.id;
  const write = gone && writeOutcome(req.method, gone);
  return {
    reqId: req.id,
    method: req.method,
    path,
    status: gone && !gone.headSent ? CLIENT_CLOSED : res.statusCode,
    bytes: sent(req, res),
    ms,
    ...(userId === undefined ? {} : { userId }),
    ...(gone ? { aborted: true } : {}),
    ...(gone?.answer === undefined ? {} : { answer: gone.answer }),
    ...(write ? { write } : {}),
  };
}

/**
 * One record per request once its answer is over (server/answer-over.ts). 5xx (and any error the error handler hands
 * over in res.err) is error, with the error's stack in the same record; 4xx is info, like 2xx/3xx (a client's mistake
 * is not the operator's alarm); probes are debug.
 */
function record(log: Logger, req: IncomingMessage, res: ServerResponse, ms: number, gone: Gone | undefined): void {
  const failed = res.err !== undefined || (gone?.answer ?? res.statusCode) >= 500;
  const path = pathOf(req);
  const level = failed ? 'error' : PROBES.has(path) ? 'debug' : 'info';
  if (!log.isLevelEnabled(level)) return;
  const entry = fields(req, res, path, ms, gone);
  const outcome = gone ? ` aborted${entry.write ? `, write ${entry.write}` : ''}` : '';
  log[level](
    { ...entry, ...(res.err === undefined ? {} : { err: res.err }) },
    `${req.method} ${entry.path} ${entry.status}${outcome}`,
  );
}

/** Where a request keeps its own logger once it was made. */
const CHILD = Symbol('child logger');

/**
 * Gives the app's requests `req.log`: a child of the service's logger bound to the request's id, made when something
 * first logs about the request (most requests log nothing but their access record, which `record` writes with the id
 * among its fields). A getter on the app's request prototype (Express sets every request's prototype to
 * `app.request`), defined once at start-up. pino-http made a child logger and its listeners on every request, about a
 * tenth of a detail read's time (docs/operations.md, "Logs").
 */
export function requestLoggers(app: Pick<Express, 'request'>, log: Logger): void {
  Object.defineProperty(app.request, 'log', {
    get(this: IncomingMessage & { [CHILD]?: Logger }) {
      return (this[CHILD] ??= log.child({ reqId: this.id }));
    },
    configurable: true,
  });
}

export function accessLog(log: Logger, trustsPeer: TrustsPeer): RequestHandler {
  const idOf = requestId(trustsPeer);
  return (req, res, next) => {
    const start = Date.now();
    sentBefore(req, res);
    req.id = idOf(req, res);
    whenAnswerOver(res, (gone) => record(log, req, res, Date.now() - start, gone));
    next();
  };
}
