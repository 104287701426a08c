// The tRPC context: the runtime the procedures work with, who is asking (set by the HTTP edge's authentication chain),
// with what credential, and the logger of the request (its records carry the request's id).
import type { Scope } from './auth/personal-tokens';
import type { AuthUser } from './requester';
import type { Logger } from './log';
import type { Runtime } from './runtime';

export interface Context {
  /** The database, the highlighter and the rest of what the service holds (src/runtime.ts). */
  runtime: Runtime;
  /** The authenticated requester, or null for an anonymous request. */
  user: AuthUser | null;
  /** The scheme's auth information (the token record for Token auth), or null. */
  auth: unknown;
  /** The authentication scheme that found the user (`basic`, `session`, `token`, `oauth2`, `oauth1`), or null. */
  scheme: string | null;
  /**
   * What the credential may do, when it is limited: a personal access token's scopes (src/access.ts). Null: all the
   * user may do (a password, a session, the user's Token).
   */
  scopes: readonly Scope[] | null;
  /** The client's address as the throttles key it (Express's req.ip: TRUST_PROXY's proxies' X-Forwarded-For believed), if known. */
  address?: string;
  /**
   * Where a procedure says what the service did about a request beside answering it (a write retried, say): made when
   * first asked for, since few requests say anything (the request's child logger is made on first use:
   * server/access-log.ts requestLoggers; made for every request it took about 1% of a busy process's main thread).
   */
  log: () => Logger;
  /**
   * The WWW-Authenticate challenge of the edge the request came through (its first authentication scheme's), if any:
   * the refusal rule answers an anonymous request 401 with it, 403 without (src/refusal.ts).
   */
  challenge?: string;
  /**
   * Hears the revision of the snippet a procedure answers with, read or written with its body: the REST edge sends it
   * as the snippet's ETag (src/snippets/preconditions.ts, docs/api.md "Conditional writes"). Unset where no such ETag
   * is sent (/trpc, the pages): never a field of a body.
   */
  etag?: (revision: number) => void;
  /**
   * Counts one call against the requester's throttle before it runs, throwing TOO_MANY_REQUESTS past the rate: set by
   * the /trpc endpoint, whose batches carry several calls in one request (server/trpc-endpoint.ts). Unset where the
   * HTTP request was the one count (REST paths, pages).
   */
  admit?: () => Promise<void>;
  /**
   * Aborts when the request's client goes away before its answer (set by the HTTP edge). A query's reads are then
   * cancelled, queued or running (src/trpc.ts, src/store/cancellation.ts); a mutation's are not: a write the client no
   * longer waits for still ends as it would have, under its deadline.
   */
  signal?: AbortSignal;
}

/** The inner context, built directly by tests and by the outer (HTTP) context. */
export function createContextInner(opts: Pick<Context, 'runtime'> & Partial<Context>): Context {
  return {
    runtime: opts.runtime,
    user: opts.user ?? null,
    auth: opts.auth ?? null,
    scheme: opts.scheme ?? null,
    scopes: opts.scopes ?? null,
    address: opts.address,
    log: opts.log ?? (() => opts.runtime.log),
    challenge: opts.challenge,
    etag: opts.etag,
    signal: opts.signal,
    admit: opts.admit,
  };
}
