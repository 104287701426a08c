// The /trpc endpoint for TypeScript clients: the same procedures, the requester from the authentication chain.
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { requestContext } from './auth/context';
import { appRouter } from '../src/routers';

export const trpcEndpoint = createExpressMiddleware({
  router: appRouter,
  createContext: ({ req }) => requestContext(req),
  maxBodySize: 1536 * 1024,
});
