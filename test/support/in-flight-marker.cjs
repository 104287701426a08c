// Preloaded into a spawned service by a test (NODE_OPTIONS=--require, test/server/lifecycle.test.ts): writes
// IN_FLIGHT_MARK to stderr each time a procedure is counted in flight (dist/src/inflight.js, the count a shutdown waits
// for), so the test acts at that moment instead of after a guessed sleep. The service's own code is unchanged.
/* global process, __dirname, require */
/* eslint-disable @typescript-eslint/no-require-imports */
'use strict';
const path = require('node:path');
const { Inflight } = require(path.join(__dirname, '../../dist/src/inflight.js'));

const tracked = Inflight.prototype.tracked;
Inflight.prototype.tracked = function (work) {
  // tracked() counts the procedure before its first await: it is in flight once the call returns.
  const result = tracked.call(this, work);
  process.stderr.write('test: a procedure is in flight\n');
  return result;
};
