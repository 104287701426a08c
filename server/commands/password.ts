// Where a command gets a password: --password, then SNIPPETS_PASSWORD, then a prompt on a terminal.
import { createInterface } from 'node:readline';
import type { Config } from '../../src/config';
import { CommandError } from './types';

function prompt(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    // Echo nothing while the password is typed.
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
      if (s.includes(question)) process.stderr.write(question);
    };
    rl.question(question, (answer) => {
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
  });
}

export async function readPassword(flag: string | undefined, config: Config): Promise<string> {
  const given = flag ?? config.SNIPPETS_PASSWORD;
  if (given !== undefined) {
    if (!given) throw new CommandError('The password may not be blank.');
    return given;
  }
  if (!process.stdin.isTTY) throw new CommandError('No password: give --password, set SNIPPETS_PASSWORD, or run on a terminal.');
  const first = await prompt('Password: ');
  const again = await prompt('Password (again): ');
  if (first !== again) throw new CommandError("The passwords didn't match.");
  if (!first) throw new CommandError('The password may not be blank.');
  return first;
}
