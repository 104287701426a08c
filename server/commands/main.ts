// The command line as a function: argv in, the exit code out (0 done, 1 failed, 2 misused), with the environment and
// the streams given, so tests run a command in-process as server/cli.ts runs it in its own.
import { loadConfig } from '../../src/config';
import { withStoredSecretKey } from '../../src/store/secret-key';
import { createRuntime, type RuntimeOptions } from '../../src/runtime';
import { activateuser, changepassword, createuser, deactivateuser, deleteuser, listusers } from './users';
import { rehighlight } from './rehighlight';
import { reindex } from './reindex';
import { storageUsage } from './storage';
import { createconsumer, createoauth1token } from './oauth1';
import { migrate, serve } from './server';
import { createclient, createtoken, deleteclient, listclients, listtokens, revoketoken } from './tokens';
import { linkuser } from './identities';
import { CommandError, UsageError, type Command, type Terminal } from './types';
import { commandHelp, parseCommandLine, toolHelp, usageLine } from './usage';

export const COMMANDS: Command[] = [
  migrate,
  createuser,
  changepassword,
  deactivateuser,
  activateuser,
  deleteuser,
  listusers,
  linkuser,
  createtoken,
  listtokens,
  revoketoken,
  createclient,
  listclients,
  deleteclient,
  createconsumer,
  createoauth1token,
  rehighlight,
  reindex,
  storageUsage,
  serve,
];

export interface CommandLineIo {
  /** The variables the configuration is read from (src/config.ts). */
  env: Record<string, string | undefined>;
  /** Writes to standard output, as it is (the command's lines end with \n). */
  stdout: (text: string) => void;
  /** Standard error (error lines, prompts, the progress bar) and standard input. */
  terminal: Terminal;
  /** For the runtime: a test's logger, say. */
  runtime?: RuntimeOptions;
}

/** A wrong command line: the reason and the usage to fix it by, on stderr; exit 2. */
class Misuse extends Error {
  constructor(
    message: string,
    readonly command?: Command,
  ) {
    super(message);
  }
}

function find(name: string): Command {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new Misuse(`unknown command ${JSON.stringify(name)}`);
  return command;
}

async function main(argv: string[], io: CommandLineIo): Promise<number> {
  const print = (text: string) => io.stdout(`${text}\n`);
  const [name, ...rest] = argv;
  if (name === undefined) throw new Misuse('no command given');
  if (name === '--help' || name === '-h' || name === 'help') {
    // `help COMMAND` is `COMMAND --help`; anything after it is ignored, as after --help.
    print(rest[0] === undefined ? toolHelp(COMMANDS) : commandHelp(find(rest[0])));
    return 0;
  }
  const command = find(name);
  let parsed;
  try {
    parsed = parseCommandLine(command, rest);
  } catch (err) {
    throw err instanceof UsageError ? new Misuse(err.message, command) : err;
  }
  if (parsed.help) {
    print(commandHelp(command));
    return 0;
  }
  // Only now: help and misuse need no valid configuration; serve needs a SECRET_KEY, stored under ./data/ if unset.
  const runtime = createRuntime(withStoredSecretKey(loadConfig(io.env)), io.runtime);
  try {
    return await command.run(parsed, { runtime, out: print, terminal: io.terminal });
  } catch (err) {
    throw err instanceof UsageError ? new Misuse(err.message, command) : err;
  } finally {
    // serve returns only when its process ends, after closing the runtime itself.
    if (command !== serve) await runtime.close();
  }
}

/** Runs `snippets <argv>`; resolves to the exit code, having written what the process would have. */
export async function runCommandLine(argv: string[], io: CommandLineIo): Promise<number> {
  try {
    return await main(argv, io);
  } catch (err) {
    if (err instanceof Misuse) {
      const c = err.command;
      const usage = c
        ? `usage: ${usageLine(c)} (snippets ${c.name} --help for more)`
        : 'usage: snippets <command> [options] (snippets --help lists the commands)';
      io.terminal.error.write(`snippets${c ? ` ${c.name}` : ''}: ${err.message}\n${usage}\n`);
      return 2;
    }
    // A CommandError and a configuration error are one line; an unexpected error's message is kept whole.
    io.terminal.error.write(`${err instanceof CommandError || err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
