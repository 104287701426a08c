// The tRPC context: who is asking (set by the HTTP edge's authentication chain) and with what credential.
import type { AuthUser } from './auth/users';

export interface Context {
  /** The authenticated requester, or null for an anonymous request. */
  user: AuthUser | null;
  /** The scheme's auth information (the token record for Token auth), or null. */
  auth: unknown;
  /** Written by a paged list: the cursor of the next page, which the REST facade turns into a Link header. */
  page: { next?: string };
}

/** The inner context, built directly by tests and by the outer (HTTP) context. */
export function createContextInner(opts: Partial<Context> = {}): Context {
  return { user: opts.user ?? null, auth: opts.auth ?? null, page: opts.page ?? {} };
}
