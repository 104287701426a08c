// The personal access token commands, in-process: createtoken --name (the key printed once), listtokens (never a key),
// revoketoken --id and --personal; the key works on the service of the same database until revoked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import supertest from 'supertest';
import { createApp } from '../../../server/app';
import { createRuntime, type Runtime } from '../../../src/runtime';
import { migrate } from '../../../src/store/migrate';
import { cliInProcess } from '../../support/cli';
import { testConfig } from '../../support/config';
import { resetDatabase } from '../../support/db';
import { noting, suiteLogger } from '../../support/log';

describe('snippets createtoken --name, listtokens, revoketoken --id', function () {
  this.timeout(120_000);
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let runtime: Runtime;
  const cli = (...args: string[]) => cliInProcess(env, ...args);
  const api = () => supertest(noting(createApp(runtime)));

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'snippets-tokens-'));
    // The suite's MariaDB database when it runs there (emptied first), else a SQLite file both runtimes open.
    const url = process.env.DATABASE_URL ?? `sqlite:${path.join(dir, 'db.sqlite3')}`;
    env = { ...process.env, DATABASE_URL: url, SECRET_KEY: 'x'.repeat(40), PASSWORD_ITERATIONS: '1000' };
    delete env.SNIPPETS_PASSWORD;
    if (process.env.DATABASE_URL) await resetDatabase();
    runtime = createRuntime(testConfig({ DATABASE_URL: url }), { log: suiteLogger });
    await migrate(runtime.store);
    expect((await cli('createuser', 'hana', '--password', 'hanapass')).code).to.equal(0);
  });
  after(async () => {
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes a token, prints its key alone, lists it without the key, and revokes it', async () => {
    const made = await cli('createtoken', 'hana', '--name', 'CI uploads', '--scope', 'write', '--expires-in', '86400');
    expect(made.code, made.stderr).to.equal(0);
    const key = made.stdout.trim();
    expect(key).to.match(/^snp_[A-Za-z0-9_-]{43}$/);
    const created = await api().post('/snippets/').set('Authorization', `Token ${key}`).send({ code: 'log' });
    expect(created.status, created.text).to.equal(201);
    // A write token may not read its list of tokens, nor does it need to: its scope is write.
    await api().get('/tokens/').set('Authorization', `Token ${key}`).expect(403);

    const listed = await cli('listtokens', 'hana');
    expect(listed.code).to.equal(0);
    const [line, ...rest] = listed.stdout.trim().split('\n');
    expect(rest).to.deep.equal([]);
    const [id, name, scopes, expires, lastUsed] = line!.split('\t');
    expect([name, scopes]).to.deep.equal(['CI uploads', 'write']);
    expect(lastUsed).not.to.equal('never');
    expect(Date.parse(expires!)).to.be.greaterThan(Date.now());
    expect(listed.stdout).not.to.include(key);

    const revoked = await cli('revoketoken', 'hana', '--id', id!);
    expect(revoked).to.include({ code: 0, stdout: `Revoked personal access token ${id} of hana.\n` });
    await api().get('/snippets/').set('Authorization', `Token ${key}`).expect(401);
    expect((await cli('listtokens', 'hana')).stdout).to.equal('');
    expect(await cli('revoketoken', 'hana', '--id', id!)).to.include({ code: 1 });
  });

  it('refuses a bad scope, a lifetime past the maximum, and --scope without --name (exit 2)', async () => {
    const bad = await cli('createtoken', 'hana', '--name', 'x', '--scope', 'admin');
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include('--scope: "admin" is not a valid choice.');
    const long = await cliInProcess(
      { ...env, PERSONAL_TOKEN_EXPIRES_IN: '60', PERSONAL_TOKEN_EXPIRES_MAX: '3600' },
      'createtoken',
      'hana',
      '--name',
      'x',
      '--expires-in',
      '3601',
    );
    expect(long.code).to.equal(2);
    expect(long.stderr).to.include('--expires-in: Ensure this value is less than or equal to 3600.');
    expect((await cli('createtoken', 'hana', '--scope', 'read')).code).to.equal(2);
    expect((await cli('listtokens', 'hana')).stdout).to.equal('');
  });

  it('revoketoken --personal also ends every personal token of the user', async () => {
    const keys = [(await cli('createtoken', 'hana', '--name', 'a')).stdout.trim()];
    keys.push((await cli('createtoken', 'hana', '--name', 'b', '--scope', 'read,write')).stdout.trim());
    const apiToken = (await cli('createtoken', 'hana')).stdout.trim();
    expect(apiToken).to.match(/^[0-9a-f]{40}$/);
    const res = await cli('revoketoken', 'hana', '--personal');
    expect(res.stdout).to.equal('Revoked the API token of hana.\nRevoked 2 personal access tokens of hana.\n');
    for (const key of keys) await api().get('/snippets/').set('Authorization', `Bearer ${key}`).expect(401);
  });
});
