// Where a command gets a password: --password, then SNIPPETS_PASSWORD, then a prompt on a terminal.
import { createInterface } from 'node:readline';
import type { Config } from '../../src/config';
import { CommandError, type Terminal } from './types';

function prompt(question: string, { input, error }: Terminal): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input, output: error, terminal: true });
    // Echo nothing while the password is typed.
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
      if (s.includes(question)) error.write(question);
    };
    rl.question(question, (answer) => {
      rl.close();
      error.write('\n');
      resolve(answer);
    });
  });
}

export async function readPassword(flag: string | undefined, config: Config, terminal: Terminal): Promise<string> {
  const given = flag ?? config.SNIPPETS_PASSWORD;
  if (given !== undefined) {
    if (!given) throw new CommandError('The password may not be blank.');
    return given;
  }
  if (!terminal.interactive)
    throw new CommandError('No password: give --password, set SNIPPETS_PASSWORD, or run on a terminal.');
  const first = await prompt('Password: ', terminal);
  const again = await prompt('Password (again): ', terminal);
  if (first !== again) throw new CommandError("The passwords didn't match.");
  if (!first) throw new CommandError('The password may not be blank.');
  return first;
}
