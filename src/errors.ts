// The messages of the errors the core raises, worded as the Django REST framework original words them.
import { TRPCError } from '@trpc/server';

export const NOT_AUTHENTICATED = 'Authentication credentials were not provided.';
export const NO_PERMISSION = 'You do not have permission to perform this action.';
export const NOT_FOUND = 'Not found.';
/** An unexpected error's message, on every path: its own text (SQL, addresses) stays in the log. */
export const SERVER_ERROR = 'A server error occurred.';

export const notFound = () => new TRPCError({ code: 'NOT_FOUND', message: NOT_FOUND });
