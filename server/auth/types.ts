// What an authentication scheme is (spec, "Custom schemes") and what the chain leaves on the request.
import type { Request, Response } from 'express';
import type { Scope } from '../../src/auth/personal-tokens';
import type { AuthUser } from '../../src/auth/users';

/**
 * Success gives the user, the scheme's auth information and, for a credential limited to some scopes (a personal
 * access token), those scopes; null means "not attempted".
 */
export type SchemeResult = { user: AuthUser; auth?: unknown; scopes?: readonly Scope[] } | null;

export interface Scheme {
  name: string;
  /** The WWW-Authenticate value; a scheme without one makes denials 403 when it is first. */
  challenge?: string;
  /** Throws AuthenticationFailed when credentials are present but wrong. */
  authenticate(req: Request, res: Response): Promise<SchemeResult>;
}

// A scheme refuses by throwing the refusal rule's AuthenticationFailed, PermissionDenied or Throttled.
export { AuthenticationFailed, PermissionDenied, Throttled } from '../../src/refusal';

export interface Requester {
  user: AuthUser | null;
  auth: unknown;
  scheme: string | null;
  /** A personal access token's scopes; null when the credential may do all the user may (src/access.ts). */
  scopes: readonly Scope[] | null;
}

declare module 'express-serve-static-core' {
  interface Request {
    requester: Requester;
  }
}
