// OAuth 2.0 Bearer authentication through passport-http-bearer; unlike the Django original, a bad token stops the request.
// A personal access token (its `snp_` prefix) is taken as a Bearer token too (docs/authentication.md).
import { Passport } from 'passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import type { Request, Response } from 'express';
import { checkAccessToken } from '../../src/auth/oauth2';
import { checkPersonalToken, isPersonalTokenKey } from '../../src/auth/personal-tokens';
import type { AuthUser } from '../../src/auth/users';
import type { Runtime } from '../../src/runtime';
import { AuthenticationFailed, type Scheme } from './types';

const INVALID = 'Invalid or expired token.';

/** Expiry is judged by the runtime's clock. */
export function bearerScheme({ store, now }: Pick<Runtime, 'store' | 'now'>): Scheme {
  const passport = new Passport();
  passport.use(
    new BearerStrategy((token, done) => {
      checkAccessToken(store, token, now()).then(
        (check) => (typeof check === 'string' ? done(null, false) : done(null, check.user, { scope: check.scope })),
        done,
      );
    }),
  );
  return {
    name: 'oauth2',
    challenge: 'Bearer realm="api"',
    async authenticate(req: Request, res: Response) {
      const parts = (req.headers.authorization ?? '').trim().split(/\s+/);
      if (parts[0]?.toLowerCase() !== 'bearer') return null;
      if (parts.length !== 2 || parts[1]!.length > 512) throw new AuthenticationFailed(INVALID);
      // An OAuth 2.0 access token is base64url and may start with `snp_` too (once in 16 million): one that is no
      // personal token's key is then looked up as an access token.
      const grant = isPersonalTokenKey(parts[1]!) && (await checkPersonalToken(store, parts[1]!, now()));
      if (grant) return { user: grant.user, auth: grant, scopes: grant.scopes };
      const user = await new Promise<AuthUser | false>((resolve, reject) => {
        passport.authenticate('bearer', { session: false }, (err: unknown, found: AuthUser | false) =>
          err ? reject(err) : resolve(found),
        )(req, res, reject);
      });
      if (!user) throw new AuthenticationFailed(INVALID);
      return { user };
    },
  };
}
