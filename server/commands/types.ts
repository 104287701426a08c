// What an admin command is: a name, a usage line, and a run that returns the exit code.
import type { AuthUser } from '../../src/auth/users';
import type { Config } from '../../src/config';
import type { Logger } from '../../src/log';
import { authUserByUsername } from '../../src/store/users';

export interface CommandContext {
  config: Config;
  log: Logger;
  out: (line: string) => void;
}

export interface Command {
  name: string;
  usage: string;
  /** Opens what it needs; resolves to the exit code. Throws CommandError for a one-line failure. */
  run(args: string[], ctx: CommandContext): Promise<number>;
}

/** A user-facing failure: printed as one line, exit code 1. */
export class CommandError extends Error {}

/** The user a command names, or the one-line failure every command gives for an unknown one. */
export async function existingUser(username: string): Promise<AuthUser> {
  const user = await authUserByUsername(username);
  if (!user) throw new CommandError(`User "${username}" does not exist.`);
  return user;
}
