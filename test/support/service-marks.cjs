// Preloaded into every service a test spawns (NODE_OPTIONS=--require, test/support/process.ts): lines on stderr that
// tell the test what the service did, so it waits for them instead of guessing. The service's own code is unchanged.
// - `test: listening on port N` when a server of the process listens: the test probes the port only then, so its probe
//   can never reach another process that held the port meanwhile (a free port found is not a port kept).
// - `test: a worker listens` besides, when that process is a cluster worker (WEB_CONCURRENCY > 1): a test waits for as
//   many as it has workers before it needs each to answer.
// - with TEST_MARK_IN_FLIGHT=1, IN_FLIGHT_MARK each time a procedure is counted in flight (dist/src/inflight.js, the
//   count a shutdown waits for; test/server/lifecycle.test.ts).
/* global process, __dirname, require */
/* eslint-disable @typescript-eslint/no-require-imports */
'use strict';
const cluster = require('node:cluster');
const net = require('node:net');
const path = require('node:path');

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  this.once('listening', () => {
    const address = this.address();
    if (address && typeof address === 'object') process.stderr.write(`test: listening on port ${address.port}\n`);
    if (cluster.isWorker) process.stderr.write('test: a worker listens\n');
  });
  return listen.apply(this, args);
};

if (process.env.TEST_MARK_IN_FLIGHT === '1') {
  const { Inflight } = require(path.join(__dirname, '../../dist/src/inflight.js'));
  const tracked = Inflight.prototype.tracked;
  Inflight.prototype.tracked = function (work) {
    // tracked() counts the procedure before its first await: it is in flight once the call returns.
    const result = tracked.call(this, work);
    process.stderr.write('test: a procedure is in flight\n');
    return result;
  };
}
