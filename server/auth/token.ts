// Token authentication: `Authorization: Token <key>`, one key per user (DRF's TokenAuthentication), and beside it the
// user's personal access tokens, told apart by their `snp_` prefix (docs/authentication.md).
import { checkPersonalToken, isPersonalTokenKey } from '../../src/auth/personal-tokens';
import { userForToken } from '../../src/auth/tokens';
import type { Runtime } from '../../src/runtime';
import { AuthenticationFailed, type Scheme } from './types';

const INVALID = 'Invalid token.';

/** A personal token's expiry is judged by the runtime's clock. */
export function tokenScheme({ store, now }: Pick<Runtime, 'store' | 'now'>): Scheme {
  return {
    name: 'token',
    challenge: 'Token',
    async authenticate(req) {
      const parts = (req.headers.authorization ?? '').trim().split(/\s+/);
      if (parts[0]?.toLowerCase() !== 'token') return null;
      if (parts.length === 1) throw new AuthenticationFailed('Invalid token header. No credentials provided.');
      if (parts.length > 2)
        throw new AuthenticationFailed('Invalid token header. Token string should not contain spaces.');
      const key = parts[1]!;
      if (isPersonalTokenKey(key)) {
        // Unknown, expired or revoked: refused as any wrong key is.
        const grant = await checkPersonalToken(store, key, now());
        if (!grant) throw new AuthenticationFailed(INVALID);
        return { user: grant.user, auth: grant, scopes: grant.scopes };
      }
      const user = await userForToken(store, key);
      if (!user) throw new AuthenticationFailed(INVALID);
      return { user, auth: { key, user } };
    },
  };
}
