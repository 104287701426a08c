#!/usr/bin/env node
// The admin command line (`snippets <command>`, or `npm run manage -- <command>`): exit 0 done, 1 failed, 2 misused.
// What each command does is in server/commands/; the command line itself is server/commands/main.ts.
import { runCommandLine } from './commands/main';

runCommandLine(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  terminal: { input: process.stdin, error: process.stderr, interactive: Boolean(process.stdin.isTTY) },
}).then((code) => process.exit(code));
