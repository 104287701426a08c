// Signing in with an OpenID Connect identity (docs/authentication.md "Single sign-on"): the first sign-in of an issuer's
// subject makes its user, later ones find it; a username held by another account is never taken over (an admin links
// the identity to it: `snippets linkuser`), and a deactivated user is refused as by every other scheme.
import { randomKey } from './digest';
import { insertUser, type AuthUser } from '../users/store';
import type { Store } from '../store/database';
import { isDuplicate } from '../store/errors';
import { deleteNewUser, identityOwner, insertIdentity } from '../store/identities';

/** Django's username rule (letters, digits and @/./+/-/_, at most 150), as `snippets createuser` enforces it. */
export const USERNAME_PATTERN = /^[\w.@+-]{1,150}$/;

/**
 * Django's unusable password ("!" and random characters, django.contrib.auth.hashers.make_password(None)): a user made
 * by a sign-in has no password until an admin sets one (`snippets changepassword`).
 */
export function unusablePassword(): string {
  return `!${randomKey(20)}`;
}

export type IdentitySignIn =
  | { user: AuthUser }
  /** The identity's user is deactivated (`snippets deactivateuser`). */
  | { refused: 'inactive' }
  /** A new identity whose username another account holds already. */
  | { refused: 'taken'; username: string }
  /** A new identity whose username claim is missing or not a valid username. */
  | { refused: 'no-username' };

export interface Identity {
  issuer: string;
  subject: string;
  /** The username the provider gives, for a new user; undefined when it gives none. */
  username: string | undefined;
}

/** The user an identity signs in as: its own, or a new one on its first sign-in. */
export async function signInIdentity(store: Store, identity: Identity): Promise<IdentitySignIn> {
  const known = await identityOwner(store, identity.issuer, identity.subject);
  if (known) return known.active ? { user: { id: known.id, username: known.username } } : { refused: 'inactive' };
  const { username } = identity;
  if (username === undefined || !USERNAME_PATTERN.test(username)) return { refused: 'no-username' };
  let user: AuthUser;
  try {
    user = await insertUser(store, { username, password: unusablePassword(), email: '' });
  } catch (err) {
    // The unique username: another account holds it (the identity is never given an existing account).
    if (isDuplicate(err)) return { refused: 'taken', username };
    throw err;
  }
  if (await insertIdentity(store, user.id, identity.issuer, identity.subject)) return { user };
  // The same identity's first sign-in, finished by another request meanwhile: that one's user is the identity's.
  await deleteNewUser(store, user.id);
  return signInIdentity(store, identity);
}

export type LinkResult = { linked: true } | { already: true } | { linkedTo: string };

/** Links an identity to an existing user (`snippets linkuser`): said so when it is linked already, to them or another. */
export async function linkIdentity(store: Store, user: AuthUser, issuer: string, subject: string): Promise<LinkResult> {
  if (await insertIdentity(store, user.id, issuer, subject)) return { linked: true };
  const owner = await identityOwner(store, issuer, subject);
  if (!owner) return linkIdentity(store, user, issuer, subject); // unlinked meanwhile: try again
  return owner.id === user.id ? { already: true } : { linkedTo: owner.username };
}
