// API tokens and OAuth 2.0 clients: createtoken, revoketoken, createclient, listclients, deleteclient.
import { isDuplicate } from '../../src/store/errors';
import { createClient } from '../../src/auth/oauth2';
import { tokenFor } from '../../src/auth/tokens';
import { allClients, deleteClientByClientId, deleteUserTokenPairs } from '../../src/store/oauth2';
import { deleteToken } from '../../src/store/tokens';
import { migrate } from '../../src/store/migrate';
import { command, CommandError, existingUser, UsageError } from './types';

export const createtoken = command({
  name: 'createtoken',
  summary: "print the user's API token (made on first use, the same afterwards)",
  args: ['USERNAME'],
  options: {},
  async run({ args: [username] }, { runtime: { store }, out }) {
    await migrate(store);
    out(await tokenFor(store, await existingUser(store, username!)));
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
    'client-secret': {
      type: 'string',
      value: 'SECRET',
      help: 'the secret, at least 8 characters (default: generated)',
    },
  },
  async run({ args: [name], options }, { runtime: { store }, out }) {
    const secret = options['client-secret'];
    if (secret !== undefined && secret.length < 8)
      throw new UsageError('--client-secret must be at least 8 characters');
    await migrate(store);
    try {
      const { clientId, secret: stored } = await createClient(store, name!, options['client-id'], secret);
      out(`client_id=${clientId}`);
      out(`client_secret=${stored}`);
    } catch (err) {
      if (isDuplicate(err))
        throw new CommandError(`A client with that client id already exists: ${options['client-id']}`);
      throw err;
    }
    return 0;
  },
});

export const revoketoken = command({
  name: 'revoketoken',
  summary: "delete the user's API token (createtoken makes a new one); with --oauth2 their OAuth 2.0 tokens too",
  args: ['USERNAME'],
  options: {
    oauth2: {
      type: 'boolean',
      help: 'also delete every OAuth 2.0 access and refresh token of the user, of every client',
    },
  },
  async run({ args: [username], options }, { runtime: { store }, out }) {
    await migrate(store);
    const user = await existingUser(store, username!);
    out(
      (await deleteToken(store, user.id)) ? `Revoked the API token of ${username}.` : `${username} had no API token.`,
    );
    if (options.oauth2) {
      const pairs = await deleteUserTokenPairs(store, user.id);
      out(`Revoked ${pairs} OAuth 2.0 token pair${pairs === 1 ? '' : 's'} of ${username}.`);
    }
    return 0;
  },
});

export const listclients = command({
  name: 'listclients',
  summary: 'list the OAuth 2.0 clients: client_id and name, one a line (never a secret)',
  args: [],
  options: {},
  async run(_input, { runtime: { store }, out }) {
    await migrate(store);
    for (const client of await allClients(store)) out(`${client.client_id}\t${client.name}`);
    return 0;
  },
});

export const deleteclient = command({
  name: 'deleteclient',
  summary: 'delete an OAuth 2.0 client and every token issued to it',
  args: ['CLIENT_ID'],
  options: {},
  async run({ args: [clientId] }, { runtime: { store }, out }) {
    await migrate(store);
    if (!(await deleteClientByClientId(store, clientId!)))
      throw new CommandError(`Client "${clientId}" does not exist.`);
    out(`Deleted client ${clientId}.`);
    return 0;
  },
});
