// The user representation: id, username and the ids of the snippets the user owns.
import { z } from 'zod';
import { pageLimit, pk } from '../schemas/fields';

export const User = z.object({
  id: z.number().int(),
  username: z.string(),
  snippets: z.array(z.number().int()),
});
export type User = z.infer<typeof User>;

export const UserList = z.array(User);

/** A page of the list: its users, and the cursor of the next page when there is one (absent on the last). */
export const UserPage = z.object({ items: UserList, next: z.string().optional() });

/** Optional keyset paging of the list, `?limit=N&cursor=…`, as the snippets' (the cursor from the previous page's Link). */
export const UserListQuery = z
  .object({ limit: pageLimit.optional(), cursor: z.string().max(200).optional() })
  .optional();
export const UserId = z.object({ id: pk });
