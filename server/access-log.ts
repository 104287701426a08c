// The access log (pino-http): one record per request when its answer ends, and the X-Request-Id of every answer.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../src/log';

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
const sentBefore = (req: IncomingMessage, res: ServerResponse) => (localsOf(res)[SENT_BEFORE] = req.socket.bytesWritten);
const sent = (req: IncomingMessage, res: ServerResponse) => req.socket.bytesWritten - (localsOf(res)[SENT_BEFORE] ?? 0);

/** The fields of an access record (the request id is bound to the record by pino-http). */
function fields(req: IncomingMessage, res: ServerResponse, responseTime: number) {
  const userId = (req as Request).requester?.user?.id;
  return {
    method: req.method,
    path: pathOf(req),
    status: res.statusCode,
    bytes: sent(req, res),
    ms: responseTime,
    ...(userId === undefined ? {} : { userId }),
    ...(res.writableEnded ? {} : { aborted: true }),
  };
}

/**
 * 5xx (and any error the error handler hands over in res.err) is error, with the error's stack in the same record;
 * 4xx is info, like 2xx/3xx (a client's mistake is not the operator's alarm); probes are debug.
 */
export function accessLog(log: Logger, trustsPeer: TrustsPeer): RequestHandler {
  const http = pinoHttp({
    logger: log,
    genReqId: requestId(trustsPeer),
    // Neither the request nor the response is serialized (that is where Authorization and Cookie live): only `fields`.
    quietReqLogger: true,
    quietResLogger: true,
    // pino-http binds the whole request to a child logger even when quiet; not serializing it saves most of its cost.
    wrapSerializers: false,
    serializers: { req: () => undefined, res: () => undefined },
    customLogLevel: (req, res, err) => (err || res.err || res.statusCode >= 500 ? 'error' : PROBES.has(pathOf(req)) ? 'debug' : 'info'),
    customSuccessObject: (req, res, val: { responseTime: number }) => fields(req, res, val.responseTime),
    // Without an error of its own (a 503 answered on purpose), pino-http makes one up ("failed with status code"): not logged.
    customErrorObject: (req, res, err, val: { responseTime: number }) => {
      const real = res.err ?? (err.message === `failed with status code ${res.statusCode}` ? undefined : err);
      return { ...fields(req, res, val.responseTime), ...(real ? { err: real } : {}) };
    },
    customSuccessMessage: (req, res) => `${req.method} ${pathOf(req)} ${res.statusCode}${res.writableEnded ? '' : ' aborted'}`,
    customErrorMessage: (req, res) => `${req.method} ${pathOf(req)} ${res.statusCode}`,
  });
  return (req, res, next) => {
    sentBefore(req, res);
    http(req, res, next);
  };
}
