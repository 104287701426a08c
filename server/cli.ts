#!/usr/bin/env node
// The admin command line (`snippets <command>`, or `npm run manage -- <command>`): exit 0 done, 1 failed, 2 misused.
import { loadConfig } from '../src/config';
import { withStoredSecretKey } from '../src/store/secret-key';
import { createRuntime } from '../src/runtime';
import { activateuser, changepassword, createuser, deactivateuser, deleteuser } from './commands/users';
import { rehighlight } from './commands/rehighlight';
import { storageUsage } from './commands/storage';
import { createconsumer, createoauth1token } from './commands/oauth1';
import { migrate, serve } from './commands/server';
import { createclient, createtoken, deleteclient, listclients, revoketoken } from './commands/tokens';
import { CommandError, UsageError, type Command } from './commands/types';
import { commandHelp, parseCommandLine, toolHelp, usageLine } from './commands/usage';

const COMMANDS: Command[] = [
  migrate,
  createuser,
  changepassword,
  deactivateuser,
  activateuser,
  deleteuser,
  createtoken,
  revoketoken,
  createclient,
  listclients,
  deleteclient,
  createconsumer,
  createoauth1token,
  rehighlight,
  storageUsage,
  serve,
];

/** A wrong command line: the reason and the usage to fix it by, on stderr; exit 2. */
class Misuse extends Error {
  constructor(
    message: string,
    readonly command?: Command,
  ) {
    super(message);
  }
}

const print = (text: string) => process.stdout.write(`${text}\n`);

function find(name: string): Command {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new Misuse(`unknown command ${JSON.stringify(name)}`);
  return command;
}

async function main(argv: string[]): Promise<number> {
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
  const runtime = createRuntime(withStoredSecretKey(loadConfig()));
  try {
    return await command.run(parsed, { runtime, out: print });
  } catch (err) {
    throw err instanceof UsageError ? new Misuse(err.message, command) : err;
  } finally {
    // serve returns only when its process ends, after closing the runtime itself.
    if (command !== serve) await runtime.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof Misuse) {
      const c = err.command;
      const usage = c ? `usage: ${usageLine(c)} (snippets ${c.name} --help for more)` : 'usage: snippets <command> [options] (snippets --help lists the commands)';
      process.stderr.write(`snippets${c ? ` ${c.name}` : ''}: ${err.message}\n${usage}\n`);
      process.exit(2);
    }
    // A CommandError and a configuration error are one line; an unexpected error's message is kept whole.
    process.stderr.write(`${err instanceof CommandError || err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
