// migrate and serve.
import { openDatabase } from '../../src/store/database';
import { migrate as applyMigrations } from '../../src/store/migrate';
import { serve as startServer } from '../serve';
import type { Command } from './types';

export const migrate: Command = {
  name: 'migrate',
  usage: 'migrate',
  async run(_args, { config, out }) {
    openDatabase(config);
    const applied = await applyMigrations();
    out(applied.length ? `Applied: ${applied.join(', ')}` : 'No migrations to apply.');
    return 0;
  },
};

export const serve: Command = {
  name: 'serve',
  usage: 'serve',
  async run(_args, { config, log }) {
    await startServer(config, log);
    return await new Promise<number>(() => {}); // runs until a signal stops the process
  },
};
