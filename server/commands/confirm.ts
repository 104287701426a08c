// A yes/no question before a command destroys something: asked on a terminal, else the command needs --yes.
import { createInterface } from 'node:readline';
import { UsageError, type Terminal } from './types';

/** True when the operator answered y or yes; throws UsageError (exit 2) when there is no terminal to ask on. */
export async function confirmed(
  question: string,
  yes: boolean | undefined,
  { input, error, interactive }: Terminal,
): Promise<boolean> {
  if (yes) return true;
  if (!interactive) throw new UsageError('not on a terminal, so nothing can be confirmed: add --yes');
  const rl = createInterface({ input, output: error });
  const answer = await new Promise<string>((resolve) => rl.question(`${question} [y/N] `, resolve));
  rl.close();
  return /^y(es)?$/i.test(answer.trim());
}
