// Calls a procedure through trpc-to-openapi and captures its answer, so the facade decides how it is written.
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import type { Request } from 'express';
import type { TRPCError } from '@trpc/server';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import type { Context } from '../../src/context';
import { appRouter } from '../../src/routers';
import { requestContext } from '../auth/context';

export type Outcome =
  | { ok: true; status: number; json: string | undefined; context: Context }
  | { ok: false; status: number; error: TRPCError };

/** The request the adapter sees: the real method/URL/headers, and the body we already parsed. */
class AdapterRequest extends EventEmitter {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: IncomingHttpHeaders,
    readonly body: unknown,
    readonly context: Context,
    readonly socket: Request['socket'],
  ) {
    super();
  }
}

/** Collects what the adapter writes instead of sending it. */
class CapturedResponse extends EventEmitter {
  statusCode = 200;
  writableEnded = false;
  json: string | undefined;
  setHeader(): this {
    return this;
  }
  end(chunk?: string): this {
    this.json = chunk;
    this.writableEnded = true;
    return this;
  }
}

const errors = new WeakMap<object, TRPCError>();

const handler = createOpenApiNodeHttpHandler({
  router: appRouter,
  createContext: ({ req }: { req: AdapterRequest }) => req.context,
  onError: ({ error, req }: { error: TRPCError; req: AdapterRequest }) => errors.set(req, error),
} as never) as unknown as (req: AdapterRequest, res: CapturedResponse) => Promise<void>;

export async function invokeProcedure(req: Request, method: string, body?: Record<string, unknown>): Promise<Outcome> {
  // The adapter reads only these two headers (it turns every header it is given into a Fetch Headers
  // object, per request); the body, parsed from JSON, a form or multipart already, is handed over as JSON.
  const headers: IncomingHttpHeaders = { host: req.headers.host };
  if (body) headers['content-type'] = 'application/json';
  const context = requestContext(req);
  const adapterReq = new AdapterRequest(method, req.originalUrl, headers, body, context, req.socket);
  const res = new CapturedResponse();
  await handler(adapterReq, res);
  const error = errors.get(adapterReq);
  if (error) return { ok: false, status: res.statusCode, error };
  return { ok: true, status: res.statusCode, json: res.json, context };
}
