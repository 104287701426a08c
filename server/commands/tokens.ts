// API tokens, personal access tokens and OAuth 2.0 clients: createtoken, listtokens, revoketoken, createclient,
// listclients, deleteclient.
import { isDuplicate } from '../../src/store/errors';
import { createClient } from '../../src/auth/oauth2';
import { createPersonalToken, listPersonalTokens, revokePersonalToken } from '../../src/auth/personal-tokens';
import { tokenFor } from '../../src/auth/tokens';
import { deletePersonalTokensOf } from '../../src/store/personal-tokens';
import { lifetimeTooLong, PersonalTokenInput } from '../../src/tokens/schema';
import { allClients, deleteClientByClientId, deleteUserTokenPairs } from '../../src/store/oauth2';
import { deleteToken } from '../../src/store/tokens';
import { migrate } from '../../src/store/migrate';
import { command, CommandError, existingUser, UsageError } from './types';

export const createtoken = command({
  name: 'createtoken',
  summary:
    "print the user's API token (made on first use, the same afterwards); with --name, a new personal access token",
  details:
    'With --name, the key of a new personal access token is printed once and stored only as a digest: note it now. ' +
    '--scope is read, write or "read,write" (default read); --expires-in is in seconds (default PERSONAL_TOKEN_EXPIRES_IN, ' +
    'at most PERSONAL_TOKEN_EXPIRES_MAX).',
  args: ['USERNAME'],
  options: {
    name: { type: 'string', value: 'NAME', help: 'make a personal access token of this name' },
    scope: { type: 'string', value: 'SCOPES', help: 'its scopes: read, write or read,write (with --name)' },
    'expires-in': { type: 'string', value: 'SECONDS', help: 'its lifetime in seconds (with --name)' },
  },
  async run({ args: [username], options }, { runtime: { store, config, now }, out }) {
    if (options.name === undefined) {
      if (options.scope !== undefined || options['expires-in'] !== undefined)
        throw new UsageError('--scope and --expires-in need --name');
      await migrate(store);
      out(await tokenFor(store, await existingUser(store, username!)));
      return 0;
    }
    const parsed = PersonalTokenInput.safeParse({
      name: options.name,
      scopes: options.scope ?? 'read',
      expires_in: options['expires-in'],
    });
    if (!parsed.success) {
      const [issue] = parsed.error.issues;
      throw new UsageError(`--${OPTION_OF[String(issue!.path[0])] ?? 'name'}: ${issue!.message}`);
    }
    const expiresIn = parsed.data.expires_in ?? config.PERSONAL_TOKEN_EXPIRES_IN;
    if (expiresIn > config.PERSONAL_TOKEN_EXPIRES_MAX)
      throw new UsageError(`--expires-in: ${lifetimeTooLong(config.PERSONAL_TOKEN_EXPIRES_MAX)}`);
    await migrate(store);
    const user = await existingUser(store, username!);
    const created = await createPersonalToken(
      store,
      user,
      { name: parsed.data.name, scopes: parsed.data.scopes, expiresIn },
      now(),
    );
    out(created.key);
    return 0;
  },
});

/** The option of each input field, for a refusal's words. */
const OPTION_OF: Record<string, string> = { name: 'name', scopes: 'scope', expires_in: 'expires-in' };

export const listtokens = command({
  name: 'listtokens',
  summary:
    "list the user's personal access tokens: id, name, scopes, expires, last used, one a line (never a key: none is stored)",
  args: ['USERNAME'],
  options: {},
  async run({ args: [username] }, { runtime: { store }, out }) {
    await migrate(store);
    const user = await existingUser(store, username!);
    for (const t of await listPersonalTokens(store, user))
      out(
        [t.id, t.name, t.scopes.join(','), t.expires.toISOString(), t.last_used?.toISOString() ?? 'never'].join('\t'),
      );
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
  summary:
    "delete the user's API token (createtoken makes a new one); with --id one personal access token instead; with --oauth2 their OAuth 2.0 tokens too; with --personal all their personal access tokens too",
  args: ['USERNAME'],
  options: {
    id: {
      type: 'string',
      value: 'ID',
      help: 'revoke only the personal access token of this id (listtokens shows it), not the API token',
    },
    oauth2: {
      type: 'boolean',
      help: 'also delete every OAuth 2.0 access and refresh token of the user, of every client',
    },
    personal: { type: 'boolean', help: 'also delete every personal access token of the user' },
  },
  async run({ args: [username], options }, { runtime: { store }, out }) {
    if (options.id !== undefined && !/^[0-9]{1,15}$/.test(options.id))
      throw new UsageError('--id must be a personal access token id: digits');
    await migrate(store);
    const user = await existingUser(store, username!);
    if (options.id !== undefined) {
      if (!(await revokePersonalToken(store, user, Number(options.id))))
        throw new CommandError(`${username} has no personal access token ${options.id}.`);
      out(`Revoked personal access token ${options.id} of ${username}.`);
    } else {
      out(
        (await deleteToken(store, user.id)) ? `Revoked the API token of ${username}.` : `${username} had no API token.`,
      );
    }
    if (options.oauth2) {
      const pairs = await deleteUserTokenPairs(store, user.id);
      out(`Revoked ${pairs} OAuth 2.0 token pair${pairs === 1 ? '' : 's'} of ${username}.`);
    }
    if (options.personal) {
      const count = await deletePersonalTokensOf(store, user.id);
      out(`Revoked ${count} personal access token${count === 1 ? '' : 's'} of ${username}.`);
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
