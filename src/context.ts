// The tRPC context: who is asking (set by the HTTP edge's authentication chain), with what credential, and the logger
// of the request (its records carry the request's id).
import pino from 'pino';
import type { AuthUser } from './auth/users';
import type { Logger } from './log';

export interface Context {
  /** The authenticated requester, or null for an anonymous request. */
  user: AuthUser | null;
  /** The scheme's auth information (the token record for Token auth), or null. */
  auth: unknown;
  /** Where a procedure says what the service did about a request beside answering it (a write retried, say). */
  log: Logger;
  /**
   * What a procedure tells its caller about the version it read or wrote beside its output: the snippet's revision,
   * which the HTTP edge turns into the ETag (src/preconditions.ts). The caller passes the object and reads it after.
   */
  seen: Seen;
}

export interface Seen {
  revision?: number;
}

const silent = pino({ level: 'silent' });

/** The inner context, built directly by tests and by the outer (HTTP) context. */
export function createContextInner(opts: Partial<Context> = {}): Context {
  return { user: opts.user ?? null, auth: opts.auth ?? null, log: opts.log ?? silent, seen: opts.seen ?? {} };
}
