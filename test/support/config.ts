// The configuration tests run with: in-memory SQLite unless DATABASE_URL names another database; REDIS_URL if set.
import { loadConfig, type Config } from '../../src/config';

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    DATABASE_URL: process.env.DATABASE_URL ?? 'sqlite::memory:',
    // Sessions and throttle counters in Redis; a logical database of the tests' own (CI: /15), emptied by resetDatabase().
    REDIS_URL: process.env.REDIS_URL,
    SECRET_KEY: 'test-secret-key-test-secret-key-test-secret-key',
    LOG_LEVEL: 'silent',
    // A deadline no ordinary rendering or diff meets on a busy machine (two suites, a worker each, on two cores: 2 s was
    // met), and that the adversarial inputs of the deadline tests (45 s of Java, a diff of 100,000 changed lines) pass.
    HIGHLIGHT_TIMEOUT_MS: '10000',
    // The same for the store's deadline (5 s by default): the file's store is built once with it, and an app's overrides
    // share that store, so a test cannot lengthen it. Full-cost password hashes on libuv's threads held SQLite's reads
    // past 5 s on a busy machine (test/auth/throttle.test.ts answered 503 in loaded runs on 2026-11-25 and -26). 60 s is
    // still a hang's bound inside mocha's 120 s; the tests of the deadline itself open stores with their own.
    DATABASE_TIMEOUT_MS: '60000',
    // Tests log in many times a minute; the throttle tests set their own limits.
    THROTTLE_LOGIN: '10000/minute',
    // The users of the tests are hashed at 1,000 iterations (support/db.ts), and so is the check of an unknown username
    // (src/auth/passwords.ts): 260,000 cost ~0.1-0.3 s of CPU a check, on libuv's threads that SQLite's reads share.
    PASSWORD_ITERATIONS: '1000',
    ...overrides,
  });
}
