// Mocha's root hooks and global fixtures (.mocharc.json requires this file).
//
// The suite runs with --parallel (.mocharc.json): each test file in a worker process, where the root hooks below run
// once per file (mocha's documented behaviour for root hooks in parallel mode). So each file gets a runtime of its own
// (support/runtime.ts) on a fresh database, each test fresh apps, and the log is checked after each test and file.
// Run with --no-parallel, the root before-all and after-all hooks run once for the whole run: the files then share
// one runtime (each test's resetDatabase() still empties it).
import path from 'node:path';
import { ensureBuilt } from './support/dist';
import { createWorkerDatabase, forgetSlots, useWorkerDatabases } from './support/workers';

// What the root hooks use loads the whole app (server/app.ts and its dependencies: 2.3 CPU-s under tsx, 2026-11-26):
// imported by the first hook, in the worker processes, and not in mocha's own process, which loads this file too but
// only runs the global fixtures below, before it starts the workers (issue 32: the suite's start).
// (require, not import(): tsx/cjs compiles what require loads; an import() goes to Node's ESM loader, which has no tsx.)
type Hooks = typeof import('./support/log') & typeof import('./support/runtime');
let loaded: Hooks | undefined;
function hooks(): Hooks {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= { ...(require('./support/log') as object), ...(require('./support/runtime') as object) } as Hooks);
}

// In a worker: its own MariaDB database and Redis database, in process.env before any test file is loaded.
useWorkerDatabases();

/** Once, in mocha's own process, before any worker starts: the tests that start the service run dist/. */
export function mochaGlobalSetup() {
  ensureBuilt();
}

export function mochaGlobalTeardown() {
  forgetSlots();
}

/** The tests whose log held a credential, and which: reported after the file. */
let leaks: string[] = [];

export const mochaHooks = {
  async beforeAll() {
    await createWorkerDatabase();
    await hooks().openFileRuntime();
  },
  beforeEach() {
    hooks().forgetApps();
  },
  afterEach(this: Mocha.Context) {
    // Every app logs at debug into memory: not one credential that crossed the wire may be in it.
    const leaked = hooks().newLeaks();
    const test = this.currentTest;
    const where = test?.file ? ` (${path.relative(process.cwd(), test.file)})` : '';
    if (leaked.length) leaks.push(`"${test?.fullTitle()}"${where} logged ${leaked.join(', ')}`);
  },
  async afterAll() {
    const { closeFileRuntime, forgetLog, newLeaks } = hooks();
    await closeFileRuntime();
    const leaked = newLeaks();
    if (leaked.length) leaks.push(`the file's hooks logged ${leaked.join(', ')}`);
    forgetLog();
    const found = leaks;
    leaks = [];
    if (found.length) throw new Error(`credentials in the suite's log:\n  ${found.join('\n  ')}`);
  },
};
