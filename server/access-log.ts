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

/** The incoming X-Request-Id when a trusted proxy sent a fit one, else a fresh UUID; set on the answer either way. */
function requestId(trustProxy: boolean) {
  return (req: IncomingMessage, res: ServerResponse): string => {
    const sent = req.headers['x-request-id'];
    const id = trustProxy && typeof sent === 'string' && FIT_ID.test(sent) ? sent : randomUUID();
    res.setHeader('X-Request-Id', id);
    return id;
  };
}

/** The path alone: a query string may carry an access_token (Bearer allows it), so it is never logged. */
const pathOf = (req: IncomingMessage) => {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/** Body bytes written (a streamed list has no Content-Length), counted as they go. */
const BYTES = Symbol('bytes');
type Counted = ServerResponse & { [BYTES]?: number };
function countBytes(res: Counted): void {
  res[BYTES] = 0;
  const write = res.write;
  const end = res.end;
  const add = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === 'string') res[BYTES]! += Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    else if (chunk instanceof Uint8Array) res[BYTES]! += chunk.byteLength;
  };
  res.write = function (this: Counted, chunk: unknown, encoding?: unknown, cb?: unknown) {
    add(chunk, encoding);
    return write.call(this, chunk, encoding as BufferEncoding, cb as () => void);
  } as ServerResponse['write'];
  res.end = function (this: Counted, chunk?: unknown, encoding?: unknown, cb?: unknown) {
    if (typeof chunk !== 'function') add(chunk, encoding);
    return end.call(this, chunk, encoding as BufferEncoding, cb as () => void);
  } as ServerResponse['end'];
}

/** The fields of an access record (the request id is bound to the record by pino-http). */
function fields(req: IncomingMessage, res: Counted, responseTime: number) {
  const userId = (req as Request).requester?.user?.id;
  return {
    method: req.method,
    path: pathOf(req),
    status: res.statusCode,
    bytes: res[BYTES],
    ms: responseTime,
    ...(userId === undefined ? {} : { userId }),
    ...(res.writableEnded ? {} : { aborted: true }),
  };
}

/**
 * 5xx (and any error the error handler hands over in res.err) is error, with the error's stack in the same record;
 * 4xx is info, like 2xx/3xx (a client's mistake is not the operator's alarm); probes are debug.
 */
export function accessLog(log: Logger, config: { TRUST_PROXY: boolean }): RequestHandler {
  const http = pinoHttp({
    logger: log,
    genReqId: requestId(config.TRUST_PROXY),
    // Neither the request nor the response is serialized (that is where Authorization and Cookie live): only `fields`.
    quietReqLogger: true,
    quietResLogger: true,
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
    countBytes(res);
    http(req, res, next);
  };
}
