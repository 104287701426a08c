// The user representation: id, username and the ids of the snippets the user owns.
import { z } from 'zod';
import { pk } from '../schemas/fields';

export const User = z.object({
  id: z.number().int(),
  username: z.string(),
  snippets: z.array(z.number().int()),
});
export type User = z.infer<typeof User>;

export const UserList = z.array(User);
export const UserId = z.object({ id: pk });
