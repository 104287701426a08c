// Mocha root hooks: one database for the run (DATABASE_URL, default in-memory SQLite), migrated once; the log checked at the end.
import { closeDatabase, openDatabase } from '../src/store/database';
import { migrate } from '../src/store/migrate';
import { closeHighlighter } from '../src/highlight';
import { testConfig } from './support/config';
import { leakedCredentials } from './support/log';

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(600_000);
    openDatabase(testConfig());
    await migrate();
  },
  async afterAll() {
    await closeHighlighter();
    await closeDatabase();
    // Every app of the suite logged at debug into memory: not one credential that crossed the wire may be in it.
    const { credentials, records, leaked } = leakedCredentials();
    if (leaked.length) throw new Error(`${leaked.length} of ${credentials} credentials are in the suite's log (${records} records): ${leaked.join(', ')}`);
  },
};
