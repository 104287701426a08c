// The application router; its type is what TypeScript clients of /trpc import.
import { router } from '../trpc';
import { snippetsRouter } from '../snippets/router';
import { tokensRouter } from '../tokens/router';
import { usersRouter } from '../users/router';

export const appRouter = router({
  snippets: snippetsRouter,
  users: usersRouter,
  tokens: tokensRouter,
});

export type AppRouter = typeof appRouter;
