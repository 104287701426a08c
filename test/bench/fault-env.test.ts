// The fault bench's services keep their counters to themselves: no REDIS_URL of the environment reaches them
// (bench/service.ts faultServiceEnv; beside .ci/run's MariaDB pass they once counted in that suite's Redis).
import { expect } from 'chai';
import { faultServiceEnv } from '../../bench/service';

describe('bench/service.ts faultServiceEnv', () => {
  const before = process.env.REDIS_URL;
  afterEach(() => {
    if (before === undefined) delete process.env.REDIS_URL;
    else process.env.REDIS_URL = before;
  });

  it("gives the service no Redis when the environment names one (another suite's)", () => {
    process.env.REDIS_URL = 'redis://127.0.0.1:6379/14';
    const env = faultServiceEnv('sqlite:/tmp/x.sqlite3', 18999);
    expect(env.REDIS_URL).to.equal('');
    expect(env).to.include({ DATABASE_URL: 'sqlite:/tmp/x.sqlite3', PORT: '18999' });
  });

  it('gives it the Redis a fault brings', () => {
    process.env.REDIS_URL = 'redis://127.0.0.1:6379/14';
    expect(
      faultServiceEnv('sqlite:/tmp/x.sqlite3', 18999, { REDIS_URL: 'redis://127.0.0.1:7000/0' }).REDIS_URL,
    ).to.equal('redis://127.0.0.1:7000/0');
  });
});
