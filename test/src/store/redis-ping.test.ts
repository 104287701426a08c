// /readyz's PING of Redis (src/store/redis.ts RedisConnection.ping): a probe while the first connection is still being
// made waits for its outcome within REDIS_TIMEOUT_MS (a 503 then would be logged as an error on every start of a
// process), and no longer than that outcome: a server that is not there is a 503 at once.
import { expect } from 'chai';
import { RedisConnection } from '../../../src/store/redis';
import { suiteLogger } from '../../support/log';

describe('RedisConnection.ping (REDIS_URL)', () => {
  let connection: RedisConnection | undefined;
  afterEach(async () => {
    await connection?.close();
    connection = undefined;
  });

  it('right after the connection is made: waits for its first connect and answers', async function () {
    if (!process.env.REDIS_URL) this.skip();
    connection = new RedisConnection({ REDIS_URL: process.env.REDIS_URL, REDIS_TIMEOUT_MS: 5000 }, suiteLogger);
    await connection.ping();
  });

  it('of a server that is not there: rejects once the first connect has failed, not after REDIS_TIMEOUT_MS', async function () {
    // A deadline no test waits out: the probe must answer from the failed connect, not from its deadline.
    this.timeout(20_000); // a hang detector, not a measure
    connection = new RedisConnection({ REDIS_URL: 'redis://127.0.0.1:1/0', REDIS_TIMEOUT_MS: 600_000 }, suiteLogger);
    const err = await connection.ping().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(Error);
  });
});
