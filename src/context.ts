// The tRPC context: who is asking (set by the HTTP edge's authentication chain) and with what credential.
import type { AuthUser } from './auth/users';

export interface Context {
  /** The authenticated requester, or null for an anonymous request. */
  user: AuthUser | null;
  /** The scheme's auth information (the token record for Token auth), or null. */
  auth: unknown;
}

/** The inner context, built directly by tests and by the outer (HTTP) context. */
export function createContextInner(opts: Partial<Context> = {}): Context {
  return { user: opts.user ?? null, auth: opts.auth ?? null };
}
