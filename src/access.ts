// Who may call a procedure, beyond its own rules (authedProcedure, the owner rule): a private deployment's reads
// (READ_ACCESS), a personal access token's scopes, and the procedures only a signed-in person may call (making and
// revoking tokens). One check, run on every procedure by src/trpc.ts, so REST, /trpc and the pages answer alike.
import { TRPCError } from '@trpc/server';
import type { Scope } from './auth/personal-tokens';
import type { Context } from './context';
import { NOT_AUTHENTICATED } from './errors';

/** The schemes by which a person signs in (a password, or the session a password or OpenID Connect login started). */
const SIGN_IN_SCHEMES = new Set(['basic', 'session']);

export const SIGN_IN_ONLY =
  'Personal access tokens are managed only when signed in with a password or a session, never with a token.';
export const missingScope = (scope: Scope) => `This token does not have the "${scope}" scope this request needs.`;

/** What a procedure's `.meta` says of its access: `signIn`, only for a requester signed in by SIGN_IN_SCHEMES. */
// A type, not an interface: tRPC's meta must be indexable.
export type AccessMeta = {
  signIn?: boolean;
};

function requireScope(ctx: Pick<Context, 'scopes'>, scope: Scope): void {
  if (ctx.scopes && !ctx.scopes.includes(scope))
    throw new TRPCError({ code: 'FORBIDDEN', message: missingScope(scope) });
}

/**
 * Throws when the requester may not call a procedure of this type: with READ_ACCESS=authenticated a query needs a
 * requester (401/403 by the edge's first scheme) and, for a token, its `read` scope; a mutation by a token needs its
 * `write` scope; a sign-in-only procedure refuses every token, whatever its scopes.
 */
export function assertAccess(
  ctx: Pick<Context, 'user' | 'scheme' | 'scopes' | 'runtime'>,
  type: 'query' | 'mutation' | 'subscription',
  meta: AccessMeta | undefined,
): void {
  const mustSignIn = meta?.signIn === true;
  const privateRead = type === 'query' && ctx.runtime.config.READ_ACCESS === 'authenticated';
  if ((mustSignIn || privateRead) && !ctx.user)
    throw new TRPCError({ code: 'UNAUTHORIZED', message: NOT_AUTHENTICATED });
  if (mustSignIn) {
    if (!SIGN_IN_SCHEMES.has(ctx.scheme ?? '')) throw new TRPCError({ code: 'FORBIDDEN', message: SIGN_IN_ONLY });
    return;
  }
  if (type === 'mutation') requireScope(ctx, 'write');
  else if (privateRead) requireScope(ctx, 'read');
}
