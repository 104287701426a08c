// createtoken and createclient.
import { isDuplicate } from '../../src/store/errors';
import { createClient } from '../../src/auth/oauth2';
import { tokenFor } from '../../src/auth/tokens';
import { openDatabase } from '../../src/store/database';
import { migrate } from '../../src/store/migrate';
import { command, CommandError, existingUser, UsageError } from './types';

export const createtoken = command({
  name: 'createtoken',
  summary: "print the user's API token (made on first use, the same afterwards)",
  args: ['USERNAME'],
  options: {},
  async run({ args: [username] }, { config, out }) {
    openDatabase(config);
    await migrate();
    out(await tokenFor(await existingUser(username!)));
    return 0;
  },
});

export const createclient = command({
  name: 'createclient',
  summary: 'create an OAuth 2.0 client allowed the password grant; print client_id= and client_secret=',
  details: 'The secret is stored only as a digest: note it now.',
  args: ['NAME'],
  options: {
    'client-id': { type: 'string', value: 'ID', help: 'the client id (default: generated)' },
    'client-secret': { type: 'string', value: 'SECRET', help: 'the secret, at least 8 characters (default: generated)' },
  },
  async run({ args: [name], options }, { config, out }) {
    const secret = options['client-secret'];
    if (secret !== undefined && secret.length < 8) throw new UsageError('--client-secret must be at least 8 characters');
    openDatabase(config);
    await migrate();
    try {
      const { clientId, secret: stored } = await createClient(name!, options['client-id'], secret);
      out(`client_id=${clientId}`);
      out(`client_secret=${stored}`);
    } catch (err) {
      if (isDuplicate(err)) throw new CommandError(`A client with that client id already exists: ${options['client-id']}`);
      throw err;
    }
    return 0;
  },
});
