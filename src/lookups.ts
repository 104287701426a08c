// Small read-only lookups the browsable pages need beyond the representations.
import { User } from './models';

/** username -> id, so the pages can link an owner to its user record. */
export async function userIdsByUsername(usernames: string[]): Promise<Map<string, number>> {
  if (!usernames.length) return new Map();
  const rows = await User.findAll({ attributes: ['id', 'username'], where: { username: [...new Set(usernames)] }, raw: true });
  return new Map(rows.map((u) => [u.username, u.id]));
}
