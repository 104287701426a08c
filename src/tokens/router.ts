// Personal access token procedures (docs/api.md "Personal access tokens"): list, create and revoke the signed-in user's
// own tokens. Each is sign-in only (src/access.ts): no token makes, lists or revokes a token.
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import {
  createPersonalToken,
  listPersonalTokens,
  revokePersonalToken,
  type PersonalTokenInfo,
} from '../auth/personal-tokens';
import { notFound } from '../errors';
import { authedProcedure, router } from '../trpc';
import { CreatedPersonalToken, lifetimeTooLong, PersonalToken, PersonalTokenId, PersonalTokenInput } from './schema';

const TAGS = ['tokens'];

function toPersonalToken(info: PersonalTokenInfo): PersonalToken {
  return {
    id: info.id,
    name: info.name,
    scopes: info.scopes,
    created: info.created.toISOString(),
    expires: info.expires.toISOString(),
    last_used: info.last_used?.toISOString() ?? null,
  };
}

/** A field's 400, in the shape a schema's own refusal has (the refusal rule words it as a field map). */
function fieldRefused(field: string, message: string): TRPCError {
  return new TRPCError({
    code: 'BAD_REQUEST',
    message,
    cause: Object.assign(new Error(message), { issues: [{ path: [field], message }] }),
  });
}

export const tokensRouter = router({
  list: authedProcedure
    .meta({
      name: 'token-list',
      signIn: true,
      openapi: {
        method: 'GET',
        path: '/tokens/',
        tags: TAGS,
        summary: 'List your personal access tokens (never their keys)',
        protect: true,
      },
    })
    .input(z.void())
    .output(z.array(PersonalToken))
    .query(async ({ ctx }) => (await listPersonalTokens(ctx.runtime.store, ctx.user)).map(toPersonalToken)),

  create: authedProcedure
    .meta({
      name: 'token-list',
      signIn: true,
      openapi: {
        method: 'POST',
        path: '/tokens/',
        tags: TAGS,
        summary: 'Create a personal access token; its key is in this answer only',
        protect: true,
        successDescription: 'Created',
      },
    })
    .input(PersonalTokenInput)
    .output(CreatedPersonalToken)
    .mutation(async ({ ctx, input }) => {
      const { PERSONAL_TOKEN_EXPIRES_IN, PERSONAL_TOKEN_EXPIRES_MAX } = ctx.runtime.config;
      const expiresIn = input.expires_in ?? PERSONAL_TOKEN_EXPIRES_IN;
      if (expiresIn > PERSONAL_TOKEN_EXPIRES_MAX)
        throw fieldRefused('expires_in', lifetimeTooLong(PERSONAL_TOKEN_EXPIRES_MAX));
      const created = await createPersonalToken(
        ctx.runtime.store,
        ctx.user,
        { name: input.name, scopes: input.scopes, expiresIn },
        ctx.runtime.now(),
      );
      return { ...toPersonalToken(created), key: created.key };
    }),

  revoke: authedProcedure
    .meta({
      name: 'token-detail',
      signIn: true,
      openapi: {
        method: 'DELETE',
        path: '/tokens/{id}/',
        tags: TAGS,
        summary: 'Revoke one of your personal access tokens',
        protect: true,
        successDescription: 'No Content',
      },
    })
    .input(PersonalTokenId)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      if (!(await revokePersonalToken(ctx.runtime.store, ctx.user, input.id))) throw notFound();
    }),
});
