#!/usr/bin/env node
// The admin command line (`snippets <command>`, or `npm run manage -- <command>`).
import { loadConfig } from '../src/config';
import { closeDatabase } from '../src/store/database';
import { closeHighlighter } from '../src/highlight';
import { createLogger } from '../src/log';
import { changepassword, createuser } from './commands/users';
import { rehighlight } from './commands/rehighlight';
import { createconsumer, createoauth1token } from './commands/oauth1';
import { migrate, serve } from './commands/server';
import { createclient, createtoken } from './commands/tokens';
import { CommandError, type Command } from './commands/types';

const COMMANDS: Command[] = [migrate, createuser, changepassword, createtoken, createclient, createconsumer, createoauth1token, rehighlight, serve];

function usage(): string {
  return ['usage: snippets <command> [options]', '', ...COMMANDS.map((c) => `  ${c.usage}`)].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`${name ? `Unknown command: ${name}\n` : ''}${usage()}\n`);
    return name ? 1 : 0;
  }
  const config = loadConfig();
  try {
    return await command.run(args, { config, log: createLogger(config.LOG_LEVEL), out: (line) => process.stdout.write(`${line}\n`) });
  } finally {
    if (command !== serve) await Promise.allSettled([closeDatabase(), closeHighlighter()]);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof CommandError || err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
