// The configuration tests run with: in-memory SQLite unless DATABASE_URL names another database.
import { loadConfig, type Config } from '../../src/config';

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    DATABASE_URL: process.env.DATABASE_URL ?? 'sqlite::memory:',
    SECRET_KEY: 'test-secret-key-test-secret-key-test-secret-key',
    LOG_LEVEL: 'silent',
    HIGHLIGHT_TIMEOUT_MS: '2000',
    // Tests log in many times a minute; the throttle tests set their own limits.
    THROTTLE_LOGIN: '10000/minute',
    ...overrides,
  });
}
