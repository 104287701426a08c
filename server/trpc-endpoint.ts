// The /trpc endpoint for TypeScript clients: the same procedures, the requester from the authentication chain.
import { Router } from 'express';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { requestContext } from './auth/context';
import { appRouter } from '../src/routers';
import { sendError } from './rest/respond';

/** tRPC answers queries to GET and mutations to POST; any other method made it throw (a 500). */
const METHODS = new Set(['GET', 'POST']);

export const trpcEndpoint = Router()
  .use((req, res, next) => (METHODS.has(req.method) ? next() : sendError(res, 405, `Method "${req.method}" not allowed.`, { Allow: 'GET, POST' })))
  .use(
    createExpressMiddleware({
      router: appRouter,
      createContext: ({ req }) => requestContext(req),
      maxBodySize: 1536 * 1024,
    }),
  );
