// The owner rule (DRF's IsOwnerOrReadOnly): only a snippet's owner may change it.
import { TRPCError } from '@trpc/server';
import type { AuthUser } from '../auth/users';
import { NO_PERMISSION } from '../errors';
import type { SnippetStore } from '../store/snippets';

export function assertOwner(snippet: { ownerId: number }, user: AuthUser): void {
  if (snippet.ownerId !== user.id) throw new TRPCError({ code: 'FORBIDDEN', message: NO_PERMISSION });
}

/** Whether `user` may write the snippet `id` (for OPTIONS: false when it does not exist). */
export async function mayWriteSnippet(
  snippets: Pick<SnippetStore, 'ownerId'>,
  user: AuthUser | null,
  id: number,
): Promise<boolean> {
  if (!user || !Number.isSafeInteger(id)) return false;
  return (await snippets.ownerId(id)) === user.id;
}
