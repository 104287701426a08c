// Token authentication: `Authorization: Token <key>`, one key per user (DRF's TokenAuthentication).
import { userForToken } from '../../src/auth/tokens';
import type { Runtime } from '../../src/runtime';
import { AuthenticationFailed, type Scheme } from './types';

export function tokenScheme({ store }: Pick<Runtime, 'store'>): Scheme {
  return {
    name: 'token',
    challenge: 'Token',
    async authenticate(req) {
      const parts = (req.headers.authorization ?? '').trim().split(/\s+/);
      if (parts[0]?.toLowerCase() !== 'token') return null;
      if (parts.length === 1) throw new AuthenticationFailed('Invalid token header. No credentials provided.');
      if (parts.length > 2)
        throw new AuthenticationFailed('Invalid token header. Token string should not contain spaces.');
      const user = await userForToken(store, parts[1]!);
      if (!user) throw new AuthenticationFailed('Invalid token.');
      return { user, auth: { key: parts[1]!, user } };
    },
  };
}
