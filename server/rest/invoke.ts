// Calls a procedure through trpc-to-openapi and captures its answer, so the facade decides how it is written.
import type { Request } from 'express';
import type { TRPCError } from '@trpc/server';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import type { Context } from '../../src/context';
import { appRouter } from '../../src/routers';
import { requestContext } from '../auth/context';

export type Outcome =
  | { ok: true; status: number; json: string | undefined; context: Context }
  | { ok: false; status: number; error: TRPCError };

/** A signal that never fires: a procedure runs to its end even when its client has hung up (see inflight.ts). */
const NEVER_ABORTED = new AbortController().signal;

interface AdapterRequest {
  method: string;
  url: string;
  body: unknown;
  context: Context;
}

/**
 * The request the adapter sees: the real method and URL, and the body we already parsed (JSON, a form or
 * multipart), handed over as JSON. It is a Fetch Request in shape: handed a Node request, trpc-to-openapi
 * builds a whole undici Request and AbortController per call only to read a `signal`, which was a sixth of a
 * GET's time. As a Request, the adapter reads `headers.get()`, `body` and `signal` from it as they are.
 */
function adapterRequest(method: string, url: string, body: unknown, context: Context): AdapterRequest {
  const contentType = body === undefined ? null : 'application/json';
  return Object.create(globalThis.Request.prototype, {
    method: { value: method },
    url: { value: url },
    headers: { value: { get: (name: string) => (name.toLowerCase() === 'content-type' ? contentType : null) } },
    body: { value: body },
    signal: { value: NEVER_ABORTED },
    context: { value: context },
    query: { value: undefined, writable: true },
  }) as AdapterRequest;
}

/** Collects what the adapter writes instead of sending it (it sets a status and headers, then ends with the JSON). */
class CapturedResponse {
  statusCode = 200;
  json: string | undefined;
  setHeader(): this {
    return this;
  }
  end(chunk?: string): this {
    this.json = chunk;
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
  const context = requestContext(req);
  const adapterReq = adapterRequest(method, req.originalUrl, body, context);
  const res = new CapturedResponse();
  await handler(adapterReq, res);
  const error = errors.get(adapterReq);
  if (error) return { ok: false, status: res.statusCode, error };
  return { ok: true, status: res.statusCode, json: res.json, context };
}
