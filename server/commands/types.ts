// What an admin command is: its name, arguments and options (which the usage and the parsing are made from), and a run.
import type { AuthUser } from '../../src/auth/users';
import type { Runtime } from '../../src/runtime';
import type { Store } from '../../src/store/database';
import { authUserByUsername } from '../../src/users/store';

export interface CommandContext {
  /** What the command works with: the configuration, the database, the highlighter (closed by the CLI afterwards). */
  runtime: Runtime;
  out: (line: string) => void;
  /** Where prompts and progress are written and answers read; the process's stdin and stderr unless given (tests give their own). */
  terminal?: Terminal;
}

export interface Terminal {
  input: NodeJS.ReadableStream;
  error: NodeJS.WritableStream;
  /** A person at a terminal who can answer a prompt (process.stdin.isTTY): else a command asking for a password or a confirmation refuses. */
  interactive: boolean;
}

/** The command's terminal, or the process's own. */
export function terminalOf(ctx: Pick<CommandContext, 'terminal'>): Terminal {
  return ctx.terminal ?? { input: process.stdin, error: process.stderr, interactive: Boolean(process.stdin.isTTY) };
}

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** A string option's placeholder in the usage: `--email E`. */
  value?: string;
  /** A string option the command cannot run without. */
  required?: boolean;
  help: string;
}

export type OptionValues<O extends Record<string, OptionSpec>> = {
  [K in keyof O]?: O[K]['type'] extends 'string' ? string : O[K]['type'] extends 'boolean' ? boolean : string | boolean;
};

export interface Command<O extends Record<string, OptionSpec> = Record<string, OptionSpec>> {
  name: string;
  /** One line for the command list and the top of the command's help. */
  summary: string;
  /** More help under the summary, when the options do not say it all. */
  details?: string;
  /** Positional arguments, each required, in order: `['USERNAME']`. */
  args: readonly string[];
  options: O;
  /** Opens what it needs; resolves to the exit code. Throws CommandError (exit 1) or UsageError (exit 2). */
  run(input: { args: string[]; options: OptionValues<O> }, ctx: CommandContext): Promise<number>;
}

/** Declares a command with its option values typed from its options. */
export function command<const O extends Record<string, OptionSpec>>(c: Command<O>): Command<O> {
  return c;
}

/** The operation failed although the command line was right (unknown user, duplicate name): one line, exit 1. */
export class CommandError extends Error {}

/** The command line is wrong (unknown option, missing argument, a malformed value): one line and the usage, exit 2. */
export class UsageError extends Error {}

/** The user a command names, or the one-line failure every command gives for an unknown one. */
export async function existingUser(store: Store, username: string): Promise<AuthUser> {
  const user = await authUserByUsername(store, username);
  if (!user) throw new CommandError(`User "${username}" does not exist.`);
  return user;
}
