// What an admin command is: a name, a usage line, and a run that returns the exit code.
import type { Config } from '../../src/config';
import type { Logger } from '../../src/log';

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
