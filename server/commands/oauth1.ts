// createconsumer and createoauth1token: OAuth 1.0a credentials, made here since there is no authorization flow.
import { isDuplicate } from '../../src/store/errors';
import { createConsumer, createToken, KEY_PATTERN, SECRET_LENGTH } from '../../src/auth/oauth1';
import { migrate } from '../../src/store/migrate';
import { command, CommandError, existingUser, UsageError } from './types';

export const createconsumer = command({
  name: 'createconsumer',
  summary: 'create an OAuth 1.0a consumer; print consumer_key= and consumer_secret=',
  args: ['NAME'],
  options: {
    key: {
      type: 'string',
      value: 'KEY',
      help: 'the consumer key, 1 to 64 of A-Z a-z 0-9 . _ ~ - (default: generated)',
    },
    secret: {
      type: 'string',
      value: 'SECRET',
      help: `the consumer secret, ${SECRET_LENGTH.min} to ${SECRET_LENGTH.max} characters (default: generated)`,
    },
  },
  async run({ args: [name], options: { key, secret } }, { runtime: { store }, out }) {
    if (name!.length > 100) throw new UsageError('NAME must be at most 100 characters');
    if (key !== undefined && !KEY_PATTERN.test(key))
      throw new UsageError('--key must be 1 to 64 characters of A-Z a-z 0-9 . _ ~ -');
    if (secret !== undefined && (secret.length < SECRET_LENGTH.min || secret.length > SECRET_LENGTH.max)) {
      throw new UsageError(`--secret must be ${SECRET_LENGTH.min} to ${SECRET_LENGTH.max} characters`);
    }
    await migrate(store);
    try {
      const consumer = await createConsumer(store, name!, key, secret);
      out(`consumer_key=${consumer.key}`);
      out(`consumer_secret=${consumer.secret}`);
    } catch (err) {
      if (isDuplicate(err)) throw new CommandError(`A consumer with that key already exists: ${key}`);
      throw err;
    }
    return 0;
  },
});

export const createoauth1token = command({
  name: 'createoauth1token',
  summary: 'create an OAuth 1.0a token acting as the user; print oauth_token= and oauth_token_secret=',
  args: ['USERNAME'],
  options: {
    consumer: { type: 'string', value: 'KEY', required: true, help: "the consumer's key (from createconsumer)" },
  },
  async run({ args: [username], options }, { runtime: { store }, out }) {
    await migrate(store);
    const token = await createToken(store, await existingUser(store, username!), options.consumer!);
    if (!token) throw new CommandError(`Consumer "${options.consumer}" does not exist.`);
    out(`oauth_token=${token.key}`);
    out(`oauth_token_secret=${token.secret}`);
    return 0;
  },
});
