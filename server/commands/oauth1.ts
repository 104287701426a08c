// createconsumer and createoauth1token: OAuth 1.0a credentials, made here since there is no authorization flow.
import { parseArgs } from 'node:util';
import { isDuplicate } from '../../src/store/errors';
import { createConsumer, createToken, KEY_PATTERN, SECRET_LENGTH } from '../../src/auth/oauth1';
import { openDatabase } from '../../src/store/database';
import { migrate } from '../../src/store/migrate';
import { CommandError, existingUser, type Command } from './types';

export const createconsumer: Command = {
  name: 'createconsumer',
  usage: 'createconsumer NAME [--key KEY] [--secret SECRET]',
  async run(args, { config, out }) {
    const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { key: { type: 'string' }, secret: { type: 'string' } } });
    const [name] = positionals;
    if (!name || positionals.length > 1) throw new CommandError(`usage: snippets ${this.usage}`);
    if (name.length > 100) throw new CommandError('The consumer name must be at most 100 characters.');
    if (values.key !== undefined && !KEY_PATTERN.test(values.key)) throw new CommandError('The consumer key must be 1 to 64 characters of A-Z a-z 0-9 . _ ~ -.');
    const secret = values.secret;
    if (secret !== undefined && (secret.length < SECRET_LENGTH.min || secret.length > SECRET_LENGTH.max)) {
      throw new CommandError(`The consumer secret must be ${SECRET_LENGTH.min} to ${SECRET_LENGTH.max} characters.`);
    }
    openDatabase(config);
    await migrate();
    try {
      const consumer = await createConsumer(name, values.key, secret);
      out(`consumer_key=${consumer.key}`);
      out(`consumer_secret=${consumer.secret}`);
    } catch (err) {
      if (isDuplicate(err)) throw new CommandError(`A consumer with that key already exists: ${values.key}`);
      throw err;
    }
    return 0;
  },
};

export const createoauth1token: Command = {
  name: 'createoauth1token',
  usage: 'createoauth1token USERNAME --consumer KEY',
  async run(args, { config, out }) {
    const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { consumer: { type: 'string' } } });
    const [username] = positionals;
    if (!username || positionals.length > 1 || !values.consumer) throw new CommandError(`usage: snippets ${this.usage}`);
    openDatabase(config);
    await migrate();
    const token = await createToken(await existingUser(username), values.consumer);
    if (!token) throw new CommandError(`Consumer "${values.consumer}" does not exist.`);
    out(`oauth_token=${token.key}`);
    out(`oauth_token_secret=${token.secret}`);
    return 0;
  },
};
