// The application router; its type is what TypeScript clients of /trpc import.
import { router } from '../trpc';
import { snippetsRouter } from '../snippets/router';
import { usersRouter } from '../users/router';

export const appRouter = router({
  snippets: snippetsRouter,
  users: usersRouter,
});

export type AppRouter = typeof appRouter;
