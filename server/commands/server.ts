// migrate and serve.
import { migrate as applyMigrations } from '../../src/store/migrate';
import { serve as startServer } from '../serve';
import { command } from './types';

export const migrate = command({
  name: 'migrate',
  summary: 'apply pending database migrations',
  args: [],
  options: {},
  async run(_input, { runtime: { store }, out }) {
    const applied = await applyMigrations(store);
    out(applied.length ? `Applied: ${applied.join(', ')}` : 'No migrations to apply.');
    return 0;
  },
});

export const serve = command({
  name: 'serve',
  summary: 'migrate, then serve the API (as npm start does) until SIGTERM or SIGINT',
  args: [],
  options: {},
  async run(_input, { runtime }) {
    await startServer(runtime);
    return await new Promise<number>(() => {}); // runs until a signal stops the process
  },
});
