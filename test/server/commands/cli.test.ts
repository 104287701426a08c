// The admin CLI as a user runs it: a subprocess on a SQLite file of its own.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sqlite3 from 'sqlite3';

const ROOT = path.resolve(__dirname, '../../..');

/** Runs SQL on the CLI's database file directly, as an operator's data would be there already. */
function sql(file: string, query: string): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file);
    db.all(query, (err, rows) => db.close(() => (err ? reject(err) : resolve(rows as Record<string, unknown>[]))));
  });
}

describe('snippets CLI', function () {
  this.timeout(60000);
  let dir: string;
  let env: NodeJS.ProcessEnv;

  function cli(...args: string[]) {
    const res = spawnSync(process.execPath, ['--require', 'tsx/cjs', path.join(ROOT, 'server/cli.ts'), ...args], { cwd: ROOT, env, encoding: 'utf8' });
    return { code: res.status, stdout: res.stdout, stderr: res.stderr };
  }

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'snippets-cli-'));
    env = { ...process.env, DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite3')}`, SECRET_KEY: 'x'.repeat(40), PASSWORD_ITERATIONS: '1000', SNIPPETS_PASSWORD: '' };
    delete env.SNIPPETS_PASSWORD;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('migrate applies the migrations, then has nothing to apply', () => {
    expect(cli('migrate')).to.include({ code: 0 }).and.have.property('stdout').that.match(/Applied: 0001/);
    expect(cli('migrate').stdout).to.match(/No migrations to apply/);
  });

  it('createuser creates a user; a duplicate exits 1 with one line', () => {
    expect(cli('createuser', 'carol', '--password', 'pw')).to.include({ code: 0 });
    const dup = cli('createuser', 'carol', '--password', 'pw');
    expect(dup.code).to.equal(1);
    expect(dup.stderr.trim().split('\n')).to.have.length(1);
    expect(dup.stderr).to.match(/already exists/);
  });

  it('createuser without a password and no terminal exits 1', () => {
    const res = cli('createuser', 'dave');
    expect(res.code).to.equal(1);
    expect(res.stderr).to.match(/No password/);
  });

  it('changepassword for an unknown user exits 1 with one line', () => {
    const res = cli('changepassword', 'nobody', '--password', 'x');
    expect(res.code).to.equal(1);
    expect(res.stderr.trim()).to.equal('User "nobody" does not exist.');
  });

  it('an unknown command exits 1 and prints the usage', () => {
    const res = cli('frobnicate');
    expect(res.code).to.equal(1);
    expect(res.stderr).to.match(/usage: snippets/);
  });

  it('createtoken prints the user\'s key, the same on a second run; an unknown user exits 1', async () => {
    const first = cli('createtoken', 'carol');
    expect(first.code).to.equal(0);
    expect(first.stdout.trim()).to.match(/^[0-9a-f]{40}$/);
    expect(cli('createtoken', 'carol').stdout).to.equal(first.stdout);
    const rows = await sql(path.join(dir, 'db.sqlite3'), 'SELECT key_digest FROM tokens');
    expect(rows).to.have.length(1);
    const unknown = cli('createtoken', 'nobody');
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr.trim()).to.equal('User "nobody" does not exist.');
  });

  it('createclient prints client_id and client_secret and stores only the secret\'s digest', async () => {
    const res = cli('createclient', 'web', '--client-id', 'web-client', '--client-secret', 'a-long-client-secret');
    expect(res.code).to.equal(0);
    expect(res.stdout).to.equal('client_id=web-client\nclient_secret=a-long-client-secret\n');
    const [row] = await sql(path.join(dir, 'db.sqlite3'), "SELECT * FROM oauth_clients WHERE client_id = 'web-client'");
    expect(JSON.stringify(row)).not.to.include('a-long-client-secret');
    const dup = cli('createclient', 'again', '--client-id', 'web-client');
    expect(dup.code).to.equal(1);
    expect(dup.stderr).to.match(/already exists/);
    const generated = cli('createclient', 'generated');
    expect(generated.stdout).to.match(/^client_id=\S{20,}\nclient_secret=\S{30,}\n$/);
  });

  it('rehighlight re-renders every stored snippet in batches, with a progress bar and a summary', async () => {
    const file = path.join(dir, 'db.sqlite3');
    await sql(file, "INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id) SELECT '2026-01-01', 't', 'x = 1', 0, 'python', 'friendly', 'stale', id FROM users LIMIT 1");
    await sql(file, "INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id) SELECT created, title, code, linenos, language, style, highlighted, owner_id FROM snippets");
    await sql(file, "INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id) SELECT created, title, code, linenos, language, style, highlighted, owner_id FROM snippets");
    const res = cli('rehighlight', '--batch-size', '3');
    expect(res.code).to.equal(0);
    expect(res.stdout).to.match(/Re-rendered 4 snippets\./);
    expect(res.stderr).to.match(/4\/4 snippets/);
    const rows = await sql(file, 'SELECT highlighted FROM snippets');
    expect(rows).to.have.length(4);
    for (const row of rows) expect(row.highlighted).to.match(/^<!DOCTYPE html>/i);
  });
});
