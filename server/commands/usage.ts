// The command line's words: usage and help text made from the commands' declarations, and parsing against them.
import { parseArgs } from 'node:util';
import { UsageError, type Command } from './types';

const HELP = { type: 'boolean', help: 'show this help' } as const;

function optionUsage(name: string, spec: Command['options'][string]): string {
  const text = spec.type === 'string' ? `--${name} ${spec.value ?? 'VALUE'}` : `--${name}`;
  return spec.required ? text : `[${text}]`;
}

/** `snippets createuser USERNAME [--email E] [--password P]` */
export function usageLine(command: Command): string {
  const options = Object.entries(command.options).map(([name, spec]) => optionUsage(name, spec));
  return ['snippets', command.name, ...command.args, ...options].join(' ');
}

/** What `snippets <command> --help` prints. */
export function commandHelp(command: Command): string {
  const rows: [string, string][] = Object.entries(command.options).map(([name, spec]) => [
    spec.type === 'string' ? `--${name} ${spec.value ?? 'VALUE'}` : `--${name}`,
    spec.help,
  ]);
  rows.push(['-h, --help', HELP.help]);
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return [
    `usage: ${usageLine(command)}`,
    '',
    command.summary,
    ...(command.details ? ['', command.details] : []),
    '',
    'options:',
    ...rows.map(([left, help]) => `  ${left.padEnd(width)}${help}`),
  ].join('\n');
}

/** What `snippets --help` prints. */
export function toolHelp(commands: Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    'usage: snippets <command> [options]',
    '',
    "The snippets service's administration. Configuration comes from the environment, as for the service",
    '(see .env.example); a bad variable is reported in one line naming it.',
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    `  ${'help'.padEnd(width)}this help, or a command's with help COMMAND`,
    '',
    'Run "snippets <command> --help" for its arguments and options.',
    'Exit status: 0 done, 1 failed (configuration, unknown user, duplicate name), 2 wrong command line.',
  ].join('\n');
}

export type Parsed =
  { help: true } | { help: false; args: string[]; options: Record<string, string | boolean | undefined> };

/** Reads a command's arguments; throws UsageError with a one-line reason. `--help` anywhere wins over every other fault. */
export function parseCommandLine(command: Command, argv: string[]): Parsed {
  const { positionals, tokens } = parseArgs({
    args: argv,
    options: { ...command.options, help: { type: 'boolean', short: 'h' } },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const options: Record<string, string | boolean | undefined> = {};
  let fault: string | undefined;
  const note = (reason: string) => (fault ??= reason);
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (token.name === 'help' || token.name === 'h') {
      if (!token.value) return { help: true };
      note(`${token.rawName} takes no value`);
      continue;
    }
    const spec = command.options[token.name];
    if (!spec || token.rawName !== `--${token.name}`) note(`unknown option ${token.rawName}`);
    else if (spec.type === 'boolean' && token.value !== undefined) note(`${token.rawName} takes no value`);
    else if (spec.type === 'string' && token.value === undefined) note(`${token.rawName} needs a value`);
    else options[token.name] = token.value ?? true;
  }
  if (fault) throw new UsageError(fault);
  const missing = command.args.slice(positionals.length);
  if (missing.length) throw new UsageError(`missing ${missing.join(' ')}`);
  if (positionals.length > command.args.length)
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals[command.args.length])}`);
  for (const [name, spec] of Object.entries(command.options)) {
    if (spec.required && options[name] === undefined) throw new UsageError(`missing ${optionUsage(name, spec)}`);
  }
  return { help: false, args: positionals, options };
}
