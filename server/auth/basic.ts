// HTTP Basic authentication (RFC 7617), with DRF's messages for malformed headers.
import type { Request } from 'express';
import { checkCredentials, recentlyVerifiedUser } from '../../src/auth/users';
import type { Runtime } from '../../src/runtime';
import type { Throttle } from './throttle';
import { AuthenticationFailed, Throttled, type Scheme } from './types';

export const BASIC_CHALLENGE = 'Basic realm="api"';
const INVALID = 'Invalid username/password.';

/** `username:password` from the header; the password is everything after the FIRST colon. */
function decodeCredentials(header: string): { username: string; password: string } {
  const parts = header.trim().split(/\s+/);
  if (parts.length === 1) throw new AuthenticationFailed('Invalid basic header. No credentials provided.');
  if (parts.length > 2)
    throw new AuthenticationFailed('Invalid basic header. Credentials string should not contain spaces.');
  const encoded = parts[1] ?? '';
  const decoded = /^[A-Za-z0-9+/]*={0,2}$/.test(encoded) ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new AuthenticationFailed('Invalid basic header. Credentials not correctly base64 encoded.');
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Against password guessing: refuses while too many recent checks failed; counts the failures. */
export type GuessingGuard = Pick<Throttle, 'passwordWait' | 'passwordFailed'>;

export function basicScheme(runtime: Pick<Runtime, 'store' | 'credentials' | 'config'>, guard?: GuessingGuard): Scheme {
  return {
    name: 'basic',
    challenge: BASIC_CHALLENGE,
    async authenticate(req: Request) {
      const header = req.headers.authorization;
      if (!header || header.trim().split(/\s+/)[0]?.toLowerCase() !== 'basic') return null;
      const { username, password } = decodeCredentials(header); // malformed headers fail here with DRF's message
      // Every password check is refused while its username, address or pair is locked, one a cache could answer
      // included: otherwise a guesser would be let through a lock the moment the guess is right.
      const wait = guard ? await guard.passwordWait(req, username) : 0;
      if (wait) throw new Throttled(wait);
      // A pair verified moments ago, its stored hash unchanged, needs no new PBKDF2: the hot path of Basic clients
      // costs what Token costs. Any other pair is checked against its stored hash.
      const user =
        (await recentlyVerifiedUser(runtime, username, password)) ??
        (await checkCredentials(runtime, username, password));
      if (!user) {
        await guard?.passwordFailed(req, username);
        throw new AuthenticationFailed(INVALID);
      }
      return { user };
    },
  };
}
