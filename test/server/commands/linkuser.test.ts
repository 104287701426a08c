// snippets linkuser: an OpenID Connect identity linked to an existing user, on a SQLite file of the CLI's own (as an
// operator runs it), or on DATABASE_URL's MariaDB database when the suite runs there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { cliInProcess } from '../../support/cli';
import { resetDatabase } from '../../support/db';

describe('snippets linkuser', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const cli = (...args: string[]) => cliInProcess(env, ...args);

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'snippets-linkuser-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    const mysql = process.env.DATABASE_URL?.startsWith('mysql');
    if (mysql) await resetDatabase();
    env = {
      DATABASE_URL: mysql
        ? process.env.DATABASE_URL
        : `sqlite:${path.join(dir, `${Date.now()}-${Math.random()}.sqlite3`)}`,
      SECRET_KEY: 'k'.repeat(40),
      PASSWORD_ITERATIONS: '1000',
      LOG_LEVEL: 'silent',
    };
    for (const name of ['alice', 'bob']) expect((await cli('createuser', name, '--password', 'pw')).code).to.equal(0);
  });

  it('links the identity to the user and says so', async () => {
    const res = await cli('linkuser', 'alice', '--issuer', 'https://id.example.com', '--subject', 'sub-1');
    expect(res).to.deep.equal({
      code: 0,
      stdout: 'Linked https://id.example.com subject sub-1 to alice.\n',
      stderr: '',
    });
  });

  it('takes OIDC_ISSUER when --issuer is not given', async () => {
    env = { ...env, OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' };
    expect((await cli('linkuser', 'alice', '--subject', 'sub-1')).stdout).to.equal(
      'Linked https://id.example.com subject sub-1 to alice.\n',
    );
    // The same identity again: it is this user's already.
    expect(await cli('linkuser', 'alice', '--subject', 'sub-1')).to.deep.equal({
      code: 0,
      stdout: 'That identity signs in as alice already.\n',
      stderr: '',
    });
  });

  it("refuses an identity that signs in as another user (exit 1), and keeps that user's link", async () => {
    await cli('linkuser', 'alice', '--issuer', 'https://id.example.com', '--subject', 'sub-1');
    expect(await cli('linkuser', 'bob', '--issuer', 'https://id.example.com', '--subject', 'sub-1')).to.deep.equal({
      code: 1,
      stdout: '',
      stderr: 'That identity signs in as alice already.\n',
    });
  });

  it('refuses an unknown user (exit 1)', async () => {
    const res = await cli('linkuser', 'nobody', '--issuer', 'https://id.example.com', '--subject', 'sub-1');
    expect(res).to.deep.equal({ code: 1, stdout: '', stderr: 'User "nobody" does not exist.\n' });
  });

  it('is misused without --subject, or without an issuer (exit 2)', async () => {
    const noSubject = await cli('linkuser', 'alice', '--issuer', 'https://id.example.com');
    expect(noSubject.code).to.equal(2);
    expect(noSubject.stderr).to.match(/^snippets linkuser: missing --subject SUB\n/);
    const noIssuer = await cli('linkuser', 'alice', '--subject', 'sub-1');
    expect(noIssuer.code).to.equal(2);
    expect(noIssuer.stderr).to.match(/^snippets linkuser: --issuer is needed when OIDC_ISSUER is not set\n/);
  });
});
