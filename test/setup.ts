// Mocha root hooks: one database for the run (DATABASE_URL, default in-memory SQLite), migrated once.
import { closeDatabase, openDatabase } from '../src/store/database';
import { migrate } from '../src/store/migrate';
import { closeHighlighter } from '../src/highlight';
import { testConfig } from './support/config';

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(600_000);
    openDatabase(testConfig());
    await migrate();
  },
  async afterAll() {
    await closeHighlighter();
    await closeDatabase();
  },
};
