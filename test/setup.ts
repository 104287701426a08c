// Mocha root hooks: each top-level suite gets a runtime of its own (support/runtime.ts), each test fresh apps; the log
// is checked at the end.
import { forgetApps, withOwnRuntime } from './support/runtime';
import { leakedCredentials } from './support/log';

export const mochaHooks = {
  beforeAll(this: Mocha.Context) {
    // Runs once the files are loaded, before any suite: the root suite holds every file's top-level suites.
    for (const suite of this.test!.parent!.suites) withOwnRuntime(suite);
  },
  beforeEach() {
    forgetApps();
  },
  afterAll() {
    // Every app of the suite logged at debug into memory: not one credential that crossed the wire may be in it.
    const { credentials, records, leaked } = leakedCredentials();
    if (leaked.length) throw new Error(`${leaked.length} of ${credentials} credentials are in the suite's log (${records} records): ${leaked.join(', ')}`);
  },
};
