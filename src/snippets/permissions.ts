// The owner rule (DRF's IsOwnerOrReadOnly): only a snippet's owner may change it.
import { TRPCError } from '@trpc/server';
import type { AuthUser } from '../auth/users';
import { NO_PERMISSION } from '../errors';
import type { Store } from '../store/database';
import { snippetOwnerId } from './reads';

export function assertOwner(snippet: { ownerId: number }, user: AuthUser): void {
  if (snippet.ownerId !== user.id) throw new TRPCError({ code: 'FORBIDDEN', message: NO_PERMISSION });
}

/** Whether `user` may write the snippet `id` (for OPTIONS: false when it does not exist). */
export async function mayWriteSnippet(store: Store, user: AuthUser | null, id: number): Promise<boolean> {
  if (!user || !Number.isSafeInteger(id)) return false;
  return (await snippetOwnerId(store, id)) === user.id;
}
