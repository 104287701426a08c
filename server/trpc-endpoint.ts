// The /trpc endpoint for TypeScript clients: the same procedures, the requester from the authentication chain.
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { createContextInner } from '../src/context';
import { appRouter } from '../src/routers';

export const trpcEndpoint = createExpressMiddleware({
  router: appRouter,
  createContext: ({ req }) => createContextInner({ user: req.requester.user, auth: req.requester.auth }),
  maxBodySize: 1536 * 1024,
});
