// createtoken and createclient.
import { parseArgs } from 'node:util';
import { isDuplicate } from '../../src/store/errors';
import { createClient } from '../../src/auth/oauth2';
import { tokenFor } from '../../src/auth/tokens';
import { openDatabase } from '../../src/store/database';
import { migrate } from '../../src/store/migrate';
import { CommandError, existingUser, type Command } from './types';

export const createtoken: Command = {
  name: 'createtoken',
  usage: 'createtoken USERNAME',
  async run(args, { config, out }) {
    const { positionals } = parseArgs({ args, allowPositionals: true });
    const [username] = positionals;
    if (!username || positionals.length > 1) throw new CommandError(`usage: snippets ${this.usage}`);
    openDatabase(config);
    await migrate();
    out(await tokenFor(await existingUser(username)));
    return 0;
  },
};

export const createclient: Command = {
  name: 'createclient',
  usage: 'createclient NAME [--client-id ID] [--client-secret SECRET]',
  async run(args, { config, out }) {
    const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { 'client-id': { type: 'string' }, 'client-secret': { type: 'string' } } });
    const [name] = positionals;
    if (!name || positionals.length > 1) throw new CommandError(`usage: snippets ${this.usage}`);
    if (values['client-secret'] !== undefined && values['client-secret'].length < 8) throw new CommandError('The client secret must be at least 8 characters.');
    openDatabase(config);
    await migrate();
    try {
      const { clientId, secret } = await createClient(name, values['client-id'], values['client-secret']);
      out(`client_id=${clientId}`);
      out(`client_secret=${secret}`);
    } catch (err) {
      if (isDuplicate(err)) throw new CommandError(`A client with that client id already exists: ${values['client-id']}`);
      throw err;
    }
    return 0;
  },
};
