// What an authentication scheme is (spec, "Custom schemes") and what the chain leaves on the request.
import type { Request, Response } from 'express';
import type { AuthUser } from '../../src/auth/users';

/** Success gives the user and the scheme's auth information; null means "not attempted". */
export type SchemeResult = { user: AuthUser; auth?: unknown } | null;

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
}

declare module 'express-serve-static-core' {
  interface Request {
    requester: Requester;
  }
}
