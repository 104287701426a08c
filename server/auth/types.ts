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

/** Credentials were present but wrong: the request stops at once (401 or 403, by the first scheme). */
export class AuthenticationFailed extends Error {}

/** Authenticated, but the request may not go on (a session write without its CSRF token): always 403. */
export class PermissionDenied extends Error {}

/** Too many failed password checks for this address or username: 429 with Retry-After, before any check. */
export class Throttled extends Error {
  constructor(readonly wait: number) {
    super(`throttled for ${wait} s`);
  }
}

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
