// loadConfig: defaults, parsing, and a failure that names the variable.
import { expect } from 'chai';
import { loadConfig } from '../../src/config';

const SECRET = { SECRET_KEY: 's'.repeat(40) };

describe('loadConfig', () => {
  it('gives the documented defaults', () => {
    const c = loadConfig(SECRET);
    expect(c).to.include({ PORT: 8000, HOST: '127.0.0.1', WEB_CONCURRENCY: 1, TRUST_PROXY: false, HIGHLIGHT_TIMEOUT_MS: 2000, DATABASE_POOL_MAX: 10, SQLITE_SYNCHRONOUS: 'NORMAL' });
    expect(c.DATABASE_URL).to.match(/^sqlite:.*data\/snippets\.sqlite3$/);
    expect(c.AUTH_SCHEMES).to.deep.equal(['basic', 'session', 'token', 'oauth2']);
    expect(c.DATABASE_REPLICA_URLS).to.deep.equal([]);
  });

  it('parses lists and numbers', () => {
    const c = loadConfig({
      ...SECRET,
      AUTH_SCHEMES: 'session, basic',
      PORT: '9000',
      DATABASE_REPLICA_URLS: 'mysql://r:p@h1:3306/db,mysql://r:p@h2/db',
      SQLITE_SYNCHRONOUS: 'full',
    });
    expect(c.AUTH_SCHEMES).to.deep.equal(['session', 'basic']);
    expect(c.PORT).to.equal(9000);
    expect(c.DATABASE_REPLICA_URLS).to.have.length(2);
    expect(c.SQLITE_SYNCHRONOUS).to.equal('FULL');
  });

  for (const [name, value] of [
    ['PORT', 'eighty'],
    ['DATABASE_URL', 'postgres://x'],
    ['AUTH_SCHEMES', 'basic,kerberos'],
    ['THROTTLE_ANON', '5 per minute'],
    ['DATABASE_REPLICA_URLS', 'sqlite:x'],
    ['SECRET_KEY', 'short'],
    ['SQLITE_SYNCHRONOUS', 'OFF'],
  ]) {
    it(`refuses a bad ${name}, naming it`, () => {
      expect(() => loadConfig({ ...SECRET, [name!]: value })).to.throw(new RegExp(`${name}`));
    });
  }
});
