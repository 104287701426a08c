// Each test file's wall time, hooks included, as a line `<seconds>\t<file>\t<start>\t<pid>` appended to FILE_TIMES
// (when set; start in ms since the epoch, pid the worker's): the slowest files of a run and each worker's timeline,
// found with `mocha --require test/support/file-times.ts` (scripts/file-times.sh). Under --parallel (.mocharc.json)
// mocha runs root hooks once per file (https://mochajs.org/#root-hooks-are-not-global), so these time it; under
// --no-parallel they run once for the whole run, which is then one line.
import { appendFileSync } from 'node:fs';
import path from 'node:path';

let started = 0;
let startedAt = 0;

export const mochaHooks = {
  beforeAll() {
    started = performance.now();
    startedAt = Date.now();
  },
  afterAll(this: Mocha.Context) {
    const out = process.env.FILE_TIMES;
    const file = this.test?.parent?.suites[0]?.file;
    if (!out || !file) return;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    appendFileSync(out, `${seconds}\t${path.relative(process.cwd(), file)}\t${startedAt}\t${process.pid}\n`);
  },
};
