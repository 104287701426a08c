// Several processes on one database: a session made on one works on the other; WEB_CONCURRENCY workers share throttle counters.
import http from 'node:http';
import { expect } from 'chai';
import { testRedis } from '../support/db';
import { sameDatabase, serviceInProcess, type InProcessService } from '../support/in-process';
import { createWithSession, loginThroughForm } from '../support/pages';
import {
  runCli,
  serviceEnv,
  startService,
  stopService,
  workersListening,
  type ServiceProcess,
} from '../support/process';

/** A GET on a new connection, so the primary hands successive requests to the workers in turn. */
function getFresh(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${path}`, { agent: false, headers }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, retryAfter: res.headers['retry-after'] }));
      })
      .on('error', reject);
  });
}

/**
 * Both workers of a WEB_CONCURRENCY=2 service listen (the second may still be starting when the first is ready), and
 * then each answers: the primary hands new connections to them in turn.
 */
async function bothWorkersUp(s: ServiceProcess): Promise<void> {
  await workersListening(s, 2);
  const workers = new Set<number>();
  for (let i = 0; i < 2; i++)
    workers.add((JSON.parse((await getFresh(s.base, '/healthz')).body) as { worker: number }).worker);
  expect(workers.size).to.equal(2);
}

describe('two service processes on one database', function () {
  this.timeout(600_000);
  // With REDIS_URL set (CI's MariaDB pass) the processes inherit it: sessions and counters are in Redis, emptied first.
  const flushRedis = async () => {
    if (process.env.REDIS_URL) await (await testRedis()).flushDb();
  };

  it('a session made on one process works on the other, for reads and CSRF-checked writes', async () => {
    await flushRedis();
    const env = serviceEnv();
    await runCli(env, 'createuser', 'alice', '--password', 'alicepass');
    // The other process is the test's own, with a runtime of its own on the spawned service's file: nothing held in the
    // spawned process's memory reaches it (a second spawned one cost tens of seconds more on a busy machine).
    let one: ServiceProcess | undefined;
    let two: InProcessService | undefined;
    try {
      [one, two] = await Promise.all([startService(env), serviceInProcess(sameDatabase(env))]);
      const cookie = await loginThroughForm(one.base, 'alice', 'alicepass');
      const { pageUser, created } = await createWithSession(two.base, cookie, 'across processes');
      expect(pageUser).to.equal('alice');
      expect(created.status).to.equal(201);
      expect(((await created.json()) as { owner: string }).owner).to.equal('alice');
    } finally {
      await Promise.all([one && stopService(one), two?.close()]);
    }
  });

  // One WEB_CONCURRENCY=2 service for both tests below (a primary and two workers cost tens of seconds to start on a
  // busy machine): bob's requests are throttled (THROTTLE_USER), anonymous diffs are not (no THROTTLE_ANON).
  describe('WEB_CONCURRENCY=2', () => {
    let one: ServiceProcess | undefined;
    let env: NodeJS.ProcessEnv;
    before(async () => {
      await flushRedis();
      // Diffs with no bound but a ten-minute deadline: the two long ones run until the service stops.
      env = serviceEnv({
        WEB_CONCURRENCY: '2',
        THROTTLE_USER: '4/minute',
        EXPENSIVE_CONCURRENCY: '2',
        DIFF_TIMEOUT_MS: '600000',
        DIFF_MAX_CHANGED_LINES: '0',
        SHUTDOWN_TIMEOUT_MS: '1000',
      });
      await runCli(env, 'createuser', 'alice', '--password', 'alicepass');
      await runCli(env, 'createuser', 'bob', '--password', 'bobpass');
      one = await startService(env);
      await bothWorkersUp(one);
    });
    after(async () => one && stopService(one));

    it('a throttle counted on one worker holds on the other', async () => {
      const bob = { Authorization: `Basic ${Buffer.from('bob:bobpass').toString('base64')}` };
      // Counted apart, no worker would see more than three of the five.
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await getFresh(one!.base, '/users/', bob)).status);
      expect(statuses).to.deep.equal([200, 200, 200, 200, 429]);
    });

    it("a client's diffs in flight on one worker count on the other (EXPENSIVE_CONCURRENCY)", async () => {
      const base = one!.base;
      // The snippets are written through the test's own process on the same file, so no write counts for a throttle.
      const writer = await serviceInProcess(sameDatabase(env));
      const auth = {
        Authorization: `Basic ${Buffer.from('alice:alicepass').toString('base64')}`,
        'Content-Type': 'application/json',
      };
      const snippet = async (before: string, after: string) => {
        const { id } = (await (
          await fetch(`${writer.base}/snippets/`, {
            method: 'POST',
            headers: auth,
            body: JSON.stringify({ code: before }),
          })
        ).json()) as { id: number };
        expect(
          (
            await fetch(`${writer.base}/snippets/${id}/`, {
              method: 'PUT',
              headers: auth,
              body: JSON.stringify({ code: after }),
            })
          ).status,
        ).to.equal(200);
        return id;
      };
      let huge = 0;
      let small = 0;
      try {
        huge = await snippet('a\n'.repeat(50_000), 'b\n'.repeat(50_000));
        small = await snippet('a = 1\n', 'a = 2\n');
      } finally {
        await writer.close();
      }
      // Two long diffs by one anonymous client, each on a connection of its own (the primary hands them out in turn). One
      // that loses the race for a slot to a small diff below is answered 429 at once: it is sent again.
      const hold = () => {
        const h = { done: false, answer: getFresh(base, `/snippets/${huge}/revisions/2/diff/`).catch(() => undefined) };
        void h.answer.then(() => (h.done = true));
        return h;
      };
      const held = [hold(), hold()];
      // Until both are counted a small diff is answered; from then on every one is refused, whichever worker takes it.
      // One after another, so the primary, its workers free, hands them out in turn: ten refusals in a row are both
      // workers refusing. Counted apart, a worker holding fewer than two would answer one of every two. A long diff
      // refused (it lost a race for a slot) or ended is sent again before each small one, so both stay in flight.
      let refusedInARow = 0;
      for (let i = 0; i < 1000 && refusedInARow < 10; i++) {
        held.forEach((h, j) => h.done && (held[j] = hold()));
        const answer = await getFresh(base, `/snippets/${small}/revisions/2/diff/`);
        expect(answer.status).to.be.oneOf([200, 429]);
        if (answer.status === 200) refusedInARow = 0;
        else {
          expect(answer.retryAfter).to.equal('1');
          refusedInARow++;
        }
      }
      expect(refusedInARow).to.equal(10);
      // The last test of the service: stopped here, its long diffs are answered (cut) and the test can end.
      await stopService(one!);
      await Promise.all(held.map((h) => h.answer));
    });
  });
});
