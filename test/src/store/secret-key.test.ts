// SECRET_KEY: loading the configuration writes nothing; the service's stored key is made once and read back after.
import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../src/config';
import { secretKey, withStoredSecretKey } from '../../../src/store/secret-key';

describe('SECRET_KEY', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'snippets-secret-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('loadConfig() without one leaves it unset and writes no file', () => {
    const before = existsSync(path.resolve('data')) ? readdirSync(path.resolve('data')) : [];
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:' });
    expect(config.SECRET_KEY).to.equal(undefined);
    expect(existsSync(path.resolve('data')) ? readdirSync(path.resolve('data')) : []).to.deep.equal(before);
    expect(() => secretKey(config)).to.throw(/SECRET_KEY is not set/);
  });

  it('withStoredSecretKey() makes one private file on first use and reads the same key afterwards', () => {
    const first = withStoredSecretKey({ SECRET_KEY: undefined }, dir).SECRET_KEY;
    expect(first).to.have.length.above(32);
    expect(statSync(path.join(dir, 'secret_key')).mode & 0o777).to.equal(0o600);
    expect(withStoredSecretKey({ SECRET_KEY: undefined }, dir).SECRET_KEY).to.equal(first);
  });

  it('a configured key wins and nothing is stored', () => {
    expect(withStoredSecretKey({ SECRET_KEY: 'k'.repeat(40) }, dir).SECRET_KEY).to.equal('k'.repeat(40));
    expect(readdirSync(dir)).to.deep.equal([]);
  });
});
