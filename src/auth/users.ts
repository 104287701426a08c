// Account operations shared by every authentication scheme and the CLI.
import { User } from '../models';
import { hashPassword, UNUSABLE_HASH_FOR_TIMING, verifyPassword } from './passwords';

export interface AuthUser {
  id: number;
  username: string;
}

/** The user whose password matches, or null; unknown usernames cost the same as wrong passwords. */
export async function checkCredentials(username: string, password: string): Promise<AuthUser | null> {
  const user = await User.findOne({ where: { username }, attributes: ['id', 'username', 'password'] });
  const ok = await verifyPassword(password, user?.password ?? UNUSABLE_HASH_FOR_TIMING);
  return ok && user ? { id: user.id, username: user.username } : null;
}

export async function createUser(
  username: string,
  password: string,
  opts: { email?: string; superuser?: boolean; iterations?: number } = {},
): Promise<AuthUser> {
  const user = await User.create({
    username,
    password: await hashPassword(password, opts.iterations),
    email: opts.email ?? '',
    is_superuser: opts.superuser ?? false,
  });
  return { id: user.id, username: user.username };
}

/** Returns false when the user does not exist. */
export async function setPassword(username: string, password: string, iterations?: number): Promise<boolean> {
  const [count] = await User.update({ password: await hashPassword(password, iterations) }, { where: { username } });
  return count > 0;
}
