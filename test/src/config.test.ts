// loadConfig: defaults, parsing, and a failure that names the variable in one line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { CONFIG_VARIABLES, loadConfig, oidcProvider } from '../../src/config';
import { MAIN } from '../support/process';

const ROOT = path.resolve(__dirname, '../..');
const SECRET = { SECRET_KEY: 's'.repeat(40) };

describe('loadConfig', () => {
  it('gives the documented defaults', () => {
    const c = loadConfig(SECRET);
    expect(c).to.include({
      PORT: 8000,
      HOST: '127.0.0.1',
      WEB_CONCURRENCY: 1,
      TRUST_PROXY: false,
      HIGHLIGHT_TIMEOUT_MS: 2000,
      DATABASE_POOL_MAX: 10,
      SQLITE_SYNCHRONOUS: 'NORMAL',
    });
    expect(c.DATABASE_URL).to.match(/^sqlite:.*data\/snippets\.sqlite3$/);
    expect(c.AUTH_SCHEMES).to.deep.equal(['basic', 'session', 'token', 'oauth2']);
    expect(c.DATABASE_REPLICA_URLS).to.deep.equal([]);
    expect(c).to.include({
      READ_ACCESS: 'anyone',
      PERSONAL_TOKEN_EXPIRES_IN: 90 * 24 * 3600,
      PERSONAL_TOKEN_EXPIRES_MAX: 365 * 24 * 3600,
    });
  });

  it('refuses a personal token default lifetime past its maximum, naming both', () => {
    expect(() =>
      loadConfig({ ...SECRET, PERSONAL_TOKEN_EXPIRES_IN: '7200', PERSONAL_TOKEN_EXPIRES_MAX: '3600' }),
    ).to.throw(
      'config: PERSONAL_TOKEN_EXPIRES_IN: must not be more than PERSONAL_TOKEN_EXPIRES_MAX (3600), got "7200"',
    );
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

  describe('TRUST_PROXY', () => {
    it("takes a hop count, false, or proxy addresses and subnets (Express's forms)", () => {
      expect(loadConfig({ ...SECRET, TRUST_PROXY: '1' }).TRUST_PROXY).to.equal(1);
      expect(loadConfig({ ...SECRET, TRUST_PROXY: '0' }).TRUST_PROXY).to.equal(false);
      expect(loadConfig({ ...SECRET, TRUST_PROXY: 'false' }).TRUST_PROXY).to.equal(false);
      expect(loadConfig({ ...SECRET, TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,loopback,::1' }).TRUST_PROXY).to.deep.equal([
        '10.0.0.0/8',
        '192.0.2.7',
        'loopback',
        '::1',
      ]);
    });

    it("refuses true, which would believe the client's own X-Forwarded-For, saying what to give instead", () => {
      expect(() => loadConfig({ ...SECRET, TRUST_PROXY: 'true' })).to.throw(
        /TRUST_PROXY: true would believe the client's own X-Forwarded-For; give the number of proxies/,
      );
    });
  });

  it('reads an empty number as unset', () => {
    expect(loadConfig({ ...SECRET, PORT: '' }).PORT).to.equal(8000);
  });

  for (const [name, value] of [
    ['PORT', 'eighty'],
    ['PORT', '1.5'],
    ['WEB_CONCURRENCY', '0'],
    ['DATABASE_URL', 'postgres://x'],
    ['AUTH_SCHEMES', 'basic,kerberos'],
    ['THROTTLE_ANON', '5 per minute'],
    ['THROTTLE_LOGIN', '5 per minute'],
    ['DATABASE_REPLICA_URLS', 'sqlite:x'],
    ['SECRET_KEY', 'short'],
    ['SQLITE_SYNCHRONOUS', 'OFF'],
    ['LOG_LEVEL', 'loud'],
    ['READ_ACCESS', 'private'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', 'proxy.example'],
  ] as const) {
    it(`refuses ${name}=${value} in one line naming it`, () => {
      expect(() => loadConfig({ ...SECRET, [name]: value })).to.throw(new RegExp(`^config: ${name}: [^\\n]+$`));
    });
  }

  it('says what an integer must be and what it got', () => {
    expect(() => loadConfig({ ...SECRET, PORT: 'eighty' })).to.throw(
      'config: PORT: expected an integer from 0 to 65535, got "eighty"',
    );
  });

  it('puts several bad variables on one line', () => {
    expect(() => loadConfig({ ...SECRET, PORT: 'eighty', LOG_LEVEL: 'loud' })).to.throw(
      /^config: PORT: [^\n]+; LOG_LEVEL: [^\n]+$/,
    );
  });

  it('never repeats a secret or a database URL in the message', () => {
    expect(() => loadConfig({ SECRET_KEY: 'hunter2' }))
      .to.throw(Error)
      .that.satisfies((e: Error) => !e.message.includes('hunter2'));
    expect(() => loadConfig({ ...SECRET, DATABASE_URL: 'postgres://u:pw-in-url@h/db' }))
      .to.throw(/^config: DATABASE_URL: /)
      .that.satisfies((e: Error) => !e.message.includes('pw-in-url'));
  });

  describe('THROTTLE_LOGIN', () => {
    it('is 10/minute when unset', () => {
      expect(loadConfig(SECRET).THROTTLE_LOGIN).to.equal('10/minute');
    });
    it('is off when empty', () => {
      expect(loadConfig({ ...SECRET, THROTTLE_LOGIN: '' }).THROTTLE_LOGIN).to.equal(undefined);
    });
    it('THROTTLE_USER is on when unset, at 1000/minute (a rate no person reaches); THROTTLE_ANON is off', () => {
      const c = loadConfig(SECRET);
      expect(c.THROTTLE_USER).to.equal('1000/minute');
      expect(c.THROTTLE_ANON).to.equal(undefined);
    });
    it('is off when empty, as THROTTLE_ANON and THROTTLE_USER are', () => {
      const c = loadConfig({ ...SECRET, THROTTLE_ANON: '', THROTTLE_USER: '' });
      expect(c.THROTTLE_ANON).to.equal(undefined);
      expect(c.THROTTLE_USER).to.equal(undefined);
    });
  });

  describe('OpenID Connect sign-in and PASSWORD_LOGIN', () => {
    const OIDC = {
      OIDC_ISSUER: 'https://id.example.com/realms/x',
      OIDC_CLIENT_ID: 'c',
      OIDC_CLIENT_SECRET: 'secret-1',
    };

    it('is off by default, with the password form on', () => {
      const c = loadConfig(SECRET);
      expect(oidcProvider(c)).to.equal(undefined);
      expect(c).to.include({ PASSWORD_LOGIN: true, OIDC_NAME: 'OpenID Connect', OIDC_TIMEOUT_MS: 5000 });
    });

    it('is on with the issuer, the client id and the secret', () => {
      expect(oidcProvider(loadConfig({ ...SECRET, ...OIDC, OIDC_NAME: 'Keycloak' }))).to.deep.equal({
        issuer: OIDC.OIDC_ISSUER,
        clientId: 'c',
        clientSecret: 'secret-1',
        name: 'Keycloak',
        usernameClaim: 'preferred_username',
      });
    });

    it('refuses some of the three without the others, naming the missing ones and never the secret', () => {
      expect(() => loadConfig({ ...SECRET, OIDC_ISSUER: OIDC.OIDC_ISSUER, OIDC_CLIENT_SECRET: 'secret-1' })).to.throw(
        'config: OIDC_CLIENT_ID: needed with OIDC_ISSUER, OIDC_CLIENT_SECRET (OpenID Connect sign-in takes all three)',
      );
    });

    it('takes http:// only on a loopback host', () => {
      for (const host of ['127.0.0.1:9000', 'localhost:9000', '[::1]:9000'])
        expect(loadConfig({ ...SECRET, ...OIDC, OIDC_ISSUER: `http://${host}` }).OIDC_ISSUER).to.equal(
          `http://${host}`,
        );
      expect(() => loadConfig({ ...SECRET, ...OIDC, OIDC_ISSUER: 'http://id.example.com' })).to.throw(
        /^config: OIDC_ISSUER: expected https:\/\/ \(http only on 127\.0\.0\.1, localhost or \[::1\]\)/,
      );
      expect(() => loadConfig({ ...SECRET, ...OIDC, OIDC_ISSUER: 'ftp://id.example.com' })).to.throw(/OIDC_ISSUER/);
    });

    it('parses PASSWORD_LOGIN as a flag', () => {
      expect(loadConfig({ ...SECRET, PASSWORD_LOGIN: 'false' }).PASSWORD_LOGIN).to.equal(false);
      expect(loadConfig({ ...SECRET, PASSWORD_LOGIN: 'off' }).PASSWORD_LOGIN).to.equal(false);
      expect(() => loadConfig({ ...SECRET, PASSWORD_LOGIN: 'nope' })).to.throw(/PASSWORD_LOGIN/);
    });
  });

  describe('DATABASE_URL on a SQLite file', () => {
    let dir: string;
    before(() => (dir = mkdtempSync(path.join(tmpdir(), 'snippets-config-'))));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('accepts a file in an existing directory', () => {
      const url = `sqlite:${path.join(dir, 'db.sqlite3')}`;
      expect(loadConfig({ ...SECRET, DATABASE_URL: url }).DATABASE_URL).to.equal(url);
    });

    it('refuses a file whose directory does not exist, naming the directory', () => {
      const missing = path.join(dir, 'no', 'such');
      expect(() => loadConfig({ ...SECRET, DATABASE_URL: `sqlite:${path.join(missing, 'db.sqlite3')}` })).to.throw(
        `config: DATABASE_URL: the directory ${missing} does not exist (create it, or choose another path)`,
      );
    });

    it('accepts sqlite::memory:', () => {
      expect(loadConfig({ ...SECRET, DATABASE_URL: 'sqlite::memory:' }).DATABASE_URL).to.equal('sqlite::memory:');
    });
  });
});

describe('the documented configuration', () => {
  it('.env.example lists every variable, commented out', () => {
    const listed = [...readFileSync(path.join(ROOT, '.env.example'), 'utf8').matchAll(/^# ([A-Z_]+)=/gm)].map(
      (m) => m[1],
    );
    expect(listed).to.have.members([...CONFIG_VARIABLES]);
  });

  it("docs/configuration.md's tables list every variable", () => {
    const doc = readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8');
    const start = doc.indexOf('## Variables');
    const end = doc.indexOf('\n## ', start + 1);
    const table = doc.slice(start, end < 0 ? undefined : end);
    const listed = [...table.matchAll(/^\| ([^|]+) \|/gm)].flatMap((m) =>
      [...m[1]!.matchAll(/`([A-Z_]+)`/g)].map((v) => v[1]),
    );
    expect(listed).to.have.members([...CONFIG_VARIABLES]);
  });
});

describe('the service (dist/server/main.js) with a bad variable', function () {
  this.timeout(600_000);
  it('exits 1 with one line on stderr naming it', () => {
    const res = spawnSync(process.execPath, [MAIN], {
      env: { ...process.env, ...SECRET, PORT: 'eighty' },
      encoding: 'utf8',
    });
    expect(res.status).to.equal(1);
    expect(res.stderr).to.equal('config: PORT: expected an integer from 0 to 65535, got "eighty"\n');
  });
});
