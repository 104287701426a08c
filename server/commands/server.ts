// migrate and serve.
import { openDatabase } from '../../src/store/database';
import { migrate as applyMigrations } from '../../src/store/migrate';
import { serve as startServer } from '../serve';
import { command } from './types';

export const migrate = command({
  name: 'migrate',
  summary: 'apply pending database migrations',
  args: [],
  options: {},
  async run(_input, { config, out }) {
    openDatabase(config);
    const applied = await applyMigrations();
    out(applied.length ? `Applied: ${applied.join(', ')}` : 'No migrations to apply.');
    return 0;
  },
});

export const serve = command({
  name: 'serve',
  summary: 'migrate, then serve the API (as npm start does) until SIGTERM or SIGINT',
  args: [],
  options: {},
  async run(_input, { config, log }) {
    await startServer(config, log);
    return await new Promise<number>(() => {}); // runs until a signal stops the process
  },
});
