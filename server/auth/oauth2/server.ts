// The oauth2orize server: the password and refresh_token grants, issuing hashed Bearer token pairs.
import oauth2orize from 'oauth2orize';
import type { Runtime } from '../../../src/runtime';
import { issueTokens, refreshTokens, type Client } from '../../../src/auth/oauth2';
import { checkCredentials } from '../../../src/auth/users';

/** RFC 6749 5.2: a bad grant is 400 (oauth2orize would say 403). */
const invalidGrant = (message: string) => new oauth2orize.TokenError(message, 'invalid_grant', undefined, 400);

export function createOAuth2Server(runtime: Runtime) {
  const { store, now } = runtime;
  const server = oauth2orize.createServer();
  const expiresIn = runtime.config.ACCESS_TOKEN_EXPIRES_IN;

  server.exchange(
    oauth2orize.exchange.password((client: Client, username: string, password: string, _scope: string[], done) => {
      (async () => {
        const user = await checkCredentials(runtime, username, password);
        if (!user) return done(invalidGrant('Invalid credentials given.'));
        const t = await issueTokens(store, user, client, expiresIn, now());
        done(null, t.access_token, t.refresh_token, { expires_in: t.expires_in, scope: t.scope });
      })().catch(done);
    }),
  );

  server.exchange(
    oauth2orize.exchange.refreshToken((client: Client, refreshToken: string, _scope: string[], done) => {
      refreshTokens(store, refreshToken, client, expiresIn, now()).then((t) => {
        if (!t) return done(invalidGrant('Invalid refresh token.'));
        done(null, t.access_token, t.refresh_token, { expires_in: t.expires_in, scope: t.scope });
      }, done);
    }),
  );
  return server;
}
