// createuser and changepassword.
import { parseArgs } from 'node:util';
import { isDuplicate } from '../../src/store/errors';
import { createUser, setPassword } from '../../src/auth/users';
import { openDatabase } from '../../src/store/database';
import { migrate } from '../../src/store/migrate';
import { readPassword } from './password';
import { CommandError, type Command } from './types';

const USERNAME = /^[\w.@+-]{1,150}$/;

export const createuser: Command = {
  name: 'createuser',
  usage: 'createuser USERNAME [--email E] [--superuser] [--password P]',
  async run(args, { config, out }) {
    const { positionals, values } = parseArgs({
      args,
      allowPositionals: true,
      options: { email: { type: 'string' }, superuser: { type: 'boolean' }, password: { type: 'string' } },
    });
    const [username] = positionals;
    if (!username || positionals.length > 1) throw new CommandError(`usage: snippets ${this.usage}`);
    if (!USERNAME.test(username)) throw new CommandError('Enter a valid username: up to 150 letters, digits and @/./+/-/_ only.');
    const password = await readPassword(values.password, config);
    openDatabase(config);
    await migrate();
    try {
      await createUser(username, password, { email: values.email, superuser: values.superuser, iterations: config.PASSWORD_ITERATIONS });
    } catch (err) {
      if (isDuplicate(err)) throw new CommandError(`A user with that username already exists: ${username}`);
      throw err;
    }
    out(`Created user ${username}.`);
    return 0;
  },
};

export const changepassword: Command = {
  name: 'changepassword',
  usage: 'changepassword USERNAME [--password P]',
  async run(args, { config, out }) {
    const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { password: { type: 'string' } } });
    const [username] = positionals;
    if (!username || positionals.length > 1) throw new CommandError(`usage: snippets ${this.usage}`);
    openDatabase(config);
    await migrate();
    const password = await readPassword(values.password, config);
    if (!(await setPassword(username, password, config.PASSWORD_ITERATIONS))) throw new CommandError(`User "${username}" does not exist.`);
    out(`Password changed successfully for user ${username}.`);
    return 0;
  },
};
