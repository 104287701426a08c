// The bench's load driver (bench/phase.ts) against a service that closes every connection after its answer, as the
// Django original's gunicorn sync workers do (docs/benchmarks.md, "Against the Django original").
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runPhase } from '../../bench/phase';

const CONNECTIONS = 2;

describe('bench/phase.ts runPhase', () => {
  describe('against answers with Connection: close', () => {
    let server: Server;
    let base: string;
    /** Requests being answered at once: one per connection of the load, whatever the machine's speed. */
    let inFlight = 0;
    let mostInFlight = 0;
    let answered = 0;

    before(async () => {
      server = createServer((_req, res) => {
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        // Answered on a later turn, so that requests of connections the driver did not mean to keep would overlap.
        setImmediate(() => {
          inFlight--;
          answered++;
          res.writeHead(200, { 'Content-Type': 'application/json', Connection: 'close' });
          // Closed at once, as gunicorn closes it: a request written after the answer meets a reset.
          res.end('[]', () => res.socket?.destroy());
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('opens a new connection for each request: no socket errors, no extra connections, each answer timed from its own request', async () => {
      const started = performance.now();
      const [tally] = await runPhase(
        base,
        [{ name: 'GET /', side: 'readers', connections: CONNECTIONS, request: { method: 'GET', path: '/' } }],
        1,
      );
      const elapsed = performance.now() - started;
      assert.ok(tally!.ok > 0, 'some answers');
      assert.equal(tally!.errors, 0, 'no request written to a closing socket');
      assert.equal(tally!.timeouts, 0);
      assert.deepEqual(Object.keys(tally!.statuses), ['200']);
      assert.ok(mostInFlight <= CONNECTIONS, `at most ${CONNECTIONS} requests at once, saw ${mostInFlight}`);
      // Each connection waits on one request at a time: its answers' times add up to no more than the phase lasted.
      const waited = tally!.latencies.reduce((a, b) => a + b, 0);
      assert.ok(
        waited <= CONNECTIONS * elapsed,
        `answers timed ${waited.toFixed(0)} ms in all, ${elapsed.toFixed(0)} ms × ${CONNECTIONS} connections`,
      );
      // Every answer the driver tallied is one the server sent (those still in flight at the end are not tallied).
      assert.ok(tally!.ok <= answered, `${tally!.ok} tallied, ${answered} answered`);
    });
  });
});
