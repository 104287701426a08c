// The personal access token shapes: what a signed-in user sends to make one, and what the service answers (the key
// only in the answer to its creation).
import { z } from 'zod';
import { SCOPES } from '../auth/personal-tokens';
import { pk, text } from '../schemas/fields';
import { notAChoice, REQUIRED } from '../schemas/messages';

export const NO_SCOPE = 'Choose at least one scope.';
export const mustBeInteger = 'A valid integer is required.';

/** Scopes as a JSON array, or as one string (a form field, OAuth's `scope`): `read write`, `read,write`. */
const scopes = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(/[\s,]+/).filter(Boolean) : v),
  z
    .array(z.enum(SCOPES, { error: (iss) => notAChoice(iss.input) }), { error: REQUIRED })
    .min(1, NO_SCOPE)
    .max(SCOPES.length * 2),
);

/** The refusal of an `expires_in` past PERSONAL_TOKEN_EXPIRES_MAX (checked by the procedure, which reads the config). */
export const lifetimeTooLong = (max: number) => `Ensure this value is less than or equal to ${max}.`;

export const PersonalTokenInput = z.object({
  name: text(100, { blank: false }),
  scopes,
  /** Seconds from now; PERSONAL_TOKEN_EXPIRES_IN when absent, at most PERSONAL_TOKEN_EXPIRES_MAX (src/tokens/router.ts). */
  expires_in: z
    .preprocess(
      (v) => (typeof v === 'string' && /^\s*[0-9]{1,15}\s*$/.test(v) ? Number(v) : v === '' ? undefined : v),
      z
        .number({ error: mustBeInteger })
        .int({ error: mustBeInteger })
        .min(60, 'Ensure this value is greater than or equal to 60.'),
    )
    .optional(),
});
export type PersonalTokenInput = z.infer<typeof PersonalTokenInput>;

export const PersonalToken = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  created: z.iso.datetime(),
  expires: z.iso.datetime(),
  last_used: z.iso.datetime().nullable(),
});
export type PersonalToken = z.infer<typeof PersonalToken>;

/** The answer to a creation: the token and its key, shown this once. */
export const CreatedPersonalToken = PersonalToken.extend({ key: z.string() });

export const PersonalTokenId = z.object({ id: pk });
