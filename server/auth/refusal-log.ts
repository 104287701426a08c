// The warn record of a refused password attempt (README "Logs"): whichever way the password came, never the password
// and never the username itself, only a digest an operator can match a username against.
import type { Request } from 'express';
import { sha256 } from '../../src/auth/digest';

/**
 * SHA-256 of the lower-cased username, its first 16 hex digits: `printf %s alice | sha256sum | cut -c1-16` finds alice's
 * refusals (Alice's too: the throttle counts them as one target as well).
 */
export const usernameDigest = (username: string) => sha256(username.toLowerCase()).slice(0, 16);

/** Logs at warn, on the request's logger (its record carries the request id of the access record). */
export function logRefusedLogin(req: Request, username: string, reason: 'password' | 'throttled'): void {
  req.log?.warn({ refused: reason, user: usernameDigest(username), ip: req.ip }, reason === 'password' ? 'login refused: wrong username or password' : 'login refused: throttled');
}
