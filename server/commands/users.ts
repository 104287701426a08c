// createuser, changepassword, listusers, and a user's lifecycle: deactivateuser, activateuser, deleteuser.
import { z } from 'zod';
import { isDuplicate } from '../../src/store/errors';
import { createUser, setPassword } from '../../src/auth/users';
import { USERNAME_PATTERN } from '../../src/auth/identities';
import { deleteUserCascading, updateActive, usersWithSignIns } from '../../src/users/store';
import { migrate } from '../../src/store/migrate';
import { confirmed } from './confirm';
import { readPassword } from './password';
import { command, CommandError, existingUser, terminalOf, UsageError } from './types';

/** The users table's email column is 254 characters, the longest address SMTP carries. */
const EMAIL = z.email().max(254);

const PASSWORD_SOURCES = 'The password comes from --password, else SNIPPETS_PASSWORD, else a prompt on a terminal.';
const PASSWORD = {
  type: 'string',
  value: 'P',
  help: 'the password (others on this machine may see it in the process list: prefer SNIPPETS_PASSWORD)',
} as const;

export const createuser = command({
  name: 'createuser',
  summary: 'create a user who can log in and write snippets',
  details: PASSWORD_SOURCES,
  args: ['USERNAME'],
  options: {
    email: { type: 'string', value: 'E', help: "the user's e-mail address" },
    password: PASSWORD,
  },
  async run({ args: [username], options }, ctx) {
    const {
      runtime: { config, store },
      out,
    } = ctx;
    if (!USERNAME_PATTERN.test(username!))
      throw new UsageError('enter a valid username: up to 150 letters, digits and @/./+/-/_ only');
    if (options.email !== undefined && !EMAIL.safeParse(options.email).success) {
      throw new UsageError(`--email: ${JSON.stringify(options.email)} is not a valid e-mail address`);
    }
    const password = await readPassword(options.password, config, terminalOf(ctx));
    await migrate(store);
    try {
      await createUser(store, username!, password, { email: options.email, iterations: config.PASSWORD_ITERATIONS });
    } catch (err) {
      if (isDuplicate(err)) throw new CommandError(`A user with that username already exists: ${username}`);
      throw err;
    }
    out(`Created user ${username}.`);
    return 0;
  },
});

export const changepassword = command({
  name: 'changepassword',
  summary: "set a user's password",
  details: PASSWORD_SOURCES,
  args: ['USERNAME'],
  options: { password: PASSWORD },
  async run({ args: [username], options }, ctx) {
    const {
      runtime: { config, store },
      out,
    } = ctx;
    await migrate(store);
    const password = await readPassword(options.password, config, terminalOf(ctx));
    if (!(await setPassword(store, username!, password, config.PASSWORD_ITERATIONS)))
      throw new CommandError(`User "${username}" does not exist.`);
    out(`Password changed successfully for user ${username}.`);
    return 0;
  },
});

function activation(name: string, active: boolean) {
  return command({
    name,
    summary: active
      ? 'let a deactivated user authenticate again, with the credentials they had'
      : 'stop a user authenticating by any scheme (Basic, session, Token, OAuth 2.0, OAuth 1.0a); keeps their snippets and credentials',
    args: ['USERNAME'],
    options: {},
    async run({ args: [username] }, { runtime: { store }, out }) {
      await migrate(store);
      if (!(await updateActive(store, username!, active))) throw new CommandError(`User "${username}" does not exist.`);
      out(`${active ? 'Activated' : 'Deactivated'} user ${username}.`);
      return 0;
    },
  });
}

export const deactivateuser = activation('deactivateuser', false);
export const activateuser = activation('activateuser', true);

export const deleteuser = command({
  name: 'deleteuser',
  summary: 'delete a user with their snippets, API token and OAuth tokens; asks first',
  details: 'On a terminal it asks for confirmation; elsewhere (a script, a pipe) it refuses unless given --yes.',
  args: ['USERNAME'],
  options: { yes: { type: 'boolean', help: 'delete without asking' } },
  async run({ args: [username], options }, ctx) {
    const {
      runtime: { store },
      out,
    } = ctx;
    await migrate(store);
    await existingUser(store, username!);
    if (!(await confirmed(`Delete user ${username} and every snippet of theirs?`, options.yes, terminalOf(ctx)))) {
      throw new CommandError('Not deleted.');
    }
    const snippets = await deleteUserCascading(store, username!);
    if (snippets === undefined) throw new CommandError(`User "${username}" does not exist.`);
    out(`Deleted user ${username} and ${snippets} snippet${snippets === 1 ? '' : 's'}.`);
    return 0;
  },
});

export const listusers = command({
  name: 'listusers',
  summary:
    'list the users, one a line: username, active or inactive, how they sign in (password and/or OpenID Connect issuers, space-separated; none), last login',
  details:
    'The last login is the last session login, on the login page or by OpenID Connect (ISO 8601, UTC; never when none): ' +
    "a script's Basic, Token or OAuth requests do not change it, as in Django.",
  args: [],
  options: {},
  async run(_input, { runtime: { store }, out }) {
    await migrate(store);
    for (const u of await usersWithSignIns(store)) {
      const ways = [...(u.password ? ['password'] : []), ...u.issuers];
      out(
        [
          u.username,
          u.active ? 'active' : 'inactive',
          ways.length ? ways.join(' ') : 'none',
          u.lastLogin?.toISOString() ?? 'never',
        ].join('\t'),
      );
    }
    return 0;
  },
});
