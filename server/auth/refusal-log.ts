// The warn record of a refused password attempt (docs/operations.md "Logs"): whichever way the password came, never
// the password and never the username itself, only a keyed digest an operator holding SECRET_KEY can match a username
// against.
import type { Request } from 'express';
import { hmacSha256 } from '../../src/auth/digest';

/**
 * HMAC-SHA256, under SECRET_KEY, of `refused-login:` and the lower-cased username, its first 16 hex digits (Alice's
 * refusals are alice's too: the throttle counts them as one target as well). Keyed, because a password typed into the
 * username field would otherwise be recoverable from a log by anyone testing guesses against a plain hash; the prefix
 * keeps it apart from the key's other uses (sessions, CSRF tokens).
 */
export const usernameDigest = (secretKey: string, username: string) =>
  hmacSha256(secretKey, `refused-login:${username.toLowerCase()}`).slice(0, 16);

export type RefusedLoginLog = (req: Request, username: string, reason: 'password' | 'throttled') => void;

/** Logs at warn, on the request's logger (its record carries the request id of the access record). */
export function refusedLoginLog(secretKey: string): RefusedLoginLog {
  return (req, username, reason) =>
    req.log?.warn(
      { refused: reason, user: usernameDigest(secretKey, username), ip: req.ip },
      reason === 'password' ? 'login refused: wrong username or password' : 'login refused: throttled',
    );
}
