// The admin CLI as a user runs it, on a SQLite file of its own: in-process through runCommandLine (what a process would
// print and its exit code), and a few runs of the built binary, to show the process does what the function does.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sqlite3 from 'sqlite3';
import { cliInProcess, cliProcess } from '../../support/cli';

const COMMANDS = [
  'migrate',
  'createuser',
  'changepassword',
  'deactivateuser',
  'activateuser',
  'deleteuser',
  'listusers',
  'linkuser',
  'createtoken',
  'revoketoken',
  'createclient',
  'listclients',
  'deleteclient',
  'createconsumer',
  'createoauth1token',
  'rehighlight',
  'reindex',
  'usage',
  'serve',
];

/** Runs SQL on the CLI's database file directly, as an operator's data would be there already. */
function sql(file: string, query: string): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file);
    db.all(query, (err, rows) => db.close(() => (err ? reject(err) : resolve(rows as Record<string, unknown>[]))));
  });
}

describe('snippets CLI', function () {
  // A bound for a hang, not a measure: the runs of the built binary take seconds each on a busy machine.
  this.timeout(600_000);
  let dir: string;
  let env: NodeJS.ProcessEnv;

  const cliIn = (extraEnv: NodeJS.ProcessEnv, ...args: string[]) => cliInProcess({ ...env, ...extraEnv }, ...args);
  const cli = (...args: string[]) => cliIn({}, ...args);

  /** A misuse: exit 2, nothing on stdout, the error line then the usage line on stderr. */
  function expectMisuse(res: Awaited<ReturnType<typeof cli>>, error: string, usage: RegExp) {
    expect(res.code).to.equal(2);
    expect(res.stdout).to.equal('');
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines).to.have.length(2);
    expect(lines[0]).to.equal(error);
    expect(lines[1]).to.match(usage);
  }

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'snippets-cli-'));
    env = {
      ...process.env,
      DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite3')}`,
      SECRET_KEY: 'x'.repeat(40),
      PASSWORD_ITERATIONS: '1000',
      SNIPPETS_PASSWORD: '',
    };
    delete env.SNIPPETS_PASSWORD;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('migrate applies the migrations, then has nothing to apply', async () => {
    expect(await cli('migrate'))
      .to.include({ code: 0 })
      .and.have.property('stdout')
      .that.match(/Applied: 0001/);
    expect((await cli('migrate')).stdout).to.match(/No migrations to apply/);
  });

  it('createuser creates a user; a duplicate exits 1 with one line', async () => {
    expect(await cli('createuser', 'carol', '--password', 'pw')).to.include({ code: 0 });
    const dup = await cli('createuser', 'carol', '--password', 'pw');
    expect(dup.code).to.equal(1);
    expect(dup.stderr.trim().split('\n')).to.have.length(1);
    expect(dup.stderr).to.match(/already exists/);
  });

  it('createuser without a password and no terminal exits 1', async () => {
    const res = await cli('createuser', 'dave');
    expect(res.code).to.equal(1);
    expect(res.stderr).to.match(/No password/);
  });

  it('changepassword for an unknown user exits 1 with one line', async () => {
    const res = await cli('changepassword', 'nobody', '--password', 'x');
    expect(res.code).to.equal(1);
    expect(res.stderr.trim()).to.equal('User "nobody" does not exist.');
  });

  it("createtoken prints the user's key, the same on a second run; an unknown user exits 1", async () => {
    const first = await cli('createtoken', 'carol');
    expect(first.code).to.equal(0);
    expect(first.stdout.trim()).to.match(/^[0-9a-f]{40}$/);
    expect((await cli('createtoken', 'carol')).stdout).to.equal(first.stdout);
    const rows = await sql(path.join(dir, 'db.sqlite3'), 'SELECT key_digest FROM tokens');
    expect(rows).to.have.length(1);
    const unknown = await cli('createtoken', 'nobody');
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr.trim()).to.equal('User "nobody" does not exist.');
  });

  it("createclient prints client_id and client_secret and stores only the secret's digest", async () => {
    const res = await cli(
      'createclient',
      'web',
      '--client-id',
      'web-client',
      '--client-secret',
      'a-long-client-secret',
    );
    expect(res.code).to.equal(0);
    expect(res.stdout).to.equal('client_id=web-client\nclient_secret=a-long-client-secret\n');
    const [row] = await sql(path.join(dir, 'db.sqlite3'), "SELECT * FROM oauth_clients WHERE client_id = 'web-client'");
    expect(JSON.stringify(row)).not.to.include('a-long-client-secret');
    const dup = await cli('createclient', 'again', '--client-id', 'web-client');
    expect(dup.code).to.equal(1);
    expect(dup.stderr).to.match(/already exists/);
    const generated = await cli('createclient', 'generated');
    expect(generated.stdout).to.match(/^client_id=\S{20,}\nclient_secret=\S{30,}\n$/);
  });

  it('revoketoken deletes the API key (createtoken then makes another); --oauth2 deletes the OAuth 2.0 pairs too', async () => {
    const file = path.join(dir, 'db.sqlite3');
    const before = (await cli('createtoken', 'carol')).stdout;
    await sql(
      file,
      "INSERT INTO oauth_tokens (access_digest, refresh_digest, user_id, client_id, scope, expires) SELECT 'a', 'r', u.id, c.id, 'read write', '2099-01-01' FROM users u, oauth_clients c WHERE u.username = 'carol' AND c.client_id = 'web-client'",
    );
    expect(await cli('revoketoken', 'carol')).to.include({ code: 0, stdout: 'Revoked the API token of carol.\n' });
    expect(
      await sql(file, "SELECT * FROM tokens t JOIN users u ON u.id = t.user_id WHERE u.username = 'carol'"),
    ).to.have.length(0);
    expect(await sql(file, 'SELECT * FROM oauth_tokens')).to.have.length(1);
    expect((await cli('revoketoken', 'carol', '--oauth2')).stdout).to.equal(
      'carol had no API token.\nRevoked 1 OAuth 2.0 token pair of carol.\n',
    );
    expect(await sql(file, 'SELECT * FROM oauth_tokens')).to.have.length(0);
    expect((await cli('createtoken', 'carol')).stdout).not.to.equal(before);
    expect(await cli('revoketoken', 'nobody')).to.include({ code: 1, stderr: 'User "nobody" does not exist.\n' });
  });

  it('listclients prints client_id and name, one a line, never the secret; deleteclient deletes one, an unknown one exits 1', async () => {
    await cli('createclient', 'doomed', '--client-id', 'doomed-client', '--client-secret', 'doomed-client-secret');
    const listed = await cli('listclients');
    expect(listed.code).to.equal(0);
    expect(listed.stdout).to.match(/^web-client\tweb\n/);
    expect(listed.stdout).to.include('doomed-client\tdoomed\n');
    expect(listed.stdout).not.to.include('secret');
    expect(await cli('deleteclient', 'doomed-client')).to.include({
      code: 0,
      stdout: 'Deleted client doomed-client.\n',
    });
    expect((await cli('listclients')).stdout).not.to.include('doomed');
    expect(await cli('deleteclient', 'doomed-client')).to.include({
      code: 1,
      stderr: 'Client "doomed-client" does not exist.\n',
    });
  });

  it('deactivateuser and activateuser set the flag; an unknown user exits 1', async () => {
    const file = path.join(dir, 'db.sqlite3');
    expect(await cli('deactivateuser', 'carol')).to.include({ code: 0, stdout: 'Deactivated user carol.\n' });
    expect(await sql(file, "SELECT is_active FROM users WHERE username = 'carol'")).to.deep.equal([{ is_active: 0 }]);
    expect(await cli('activateuser', 'carol')).to.include({ code: 0, stdout: 'Activated user carol.\n' });
    expect(await sql(file, "SELECT is_active FROM users WHERE username = 'carol'")).to.deep.equal([{ is_active: 1 }]);
    expect(await cli('deactivateuser', 'nobody')).to.include({ code: 1, stderr: 'User "nobody" does not exist.\n' });
  });

  it('deleteuser off a terminal without --yes exits 2 and deletes nothing; with --yes it deletes the user, their snippets and token', async () => {
    const file = path.join(dir, 'db.sqlite3');
    expect((await cli('createuser', 'gina', '--password', 'pw')).code).to.equal(0);
    await cli('createtoken', 'gina');
    await sql(
      file,
      "INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id) SELECT '2026-01-01', 't', 'x', 0, 'python', 'friendly', '', id FROM users WHERE username = 'gina'",
    );
    const others = (await sql(file, 'SELECT COUNT(*) AS n FROM snippets'))[0]!.n as number;
    expectMisuse(
      await cli('deleteuser', 'gina'),
      'snippets deleteuser: not on a terminal, so nothing can be confirmed: add --yes',
      /^usage: snippets deleteuser USERNAME \[--yes\] /,
    );
    expect(await sql(file, "SELECT id FROM users WHERE username = 'gina'")).to.have.length(1);
    expect(await cli('deleteuser', 'gina', '--yes')).to.include({
      code: 0,
      stdout: 'Deleted user gina and 1 snippet.\n',
    });
    expect(await sql(file, "SELECT id FROM users WHERE username = 'gina'")).to.have.length(0);
    expect((await sql(file, 'SELECT COUNT(*) AS n FROM snippets'))[0]!.n).to.equal(others - 1);
    expect(
      await sql(file, 'SELECT * FROM tokens t LEFT JOIN users u ON u.id = t.user_id WHERE u.id IS NULL'),
    ).to.have.length(0);
    expect(await cli('deleteuser', 'gina', '--yes')).to.include({ code: 1, stderr: 'User "gina" does not exist.\n' });
  });

  it('rehighlight re-renders every stored snippet in batches, with a progress bar and a summary', async () => {
    const file = path.join(dir, 'db.sqlite3');
    await sql(
      file,
      "INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id) SELECT '2026-01-01', 't', 'x = 1', 0, 'python', 'friendly', 'stale', id FROM users LIMIT 1",
    );
    await sql(
      file,
      'INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id) SELECT created, title, code, linenos, language, style, highlighted, owner_id FROM snippets',
    );
    await sql(
      file,
      'INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id) SELECT created, title, code, linenos, language, style, highlighted, owner_id FROM snippets',
    );
    const res = await cli('rehighlight', '--batch-size', '3');
    expect(res.code).to.equal(0);
    expect(res.stdout).to.match(/Re-rendered 4 snippets\./);
    expect(res.stderr).to.match(/4\/4 snippets/);
    const rows = await sql(file, 'SELECT highlighted FROM snippets');
    expect(rows).to.have.length(4);
    for (const row of rows) expect(row.highlighted).to.match(/^<!DOCTYPE html>/i);
  });

  describe('snippets --help, -h, help', () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      it(`snippets ${args.join(' ')} prints every command on stdout and exits 0`, async () => {
        const res = await cli(...args);
        expect(res).to.include({ code: 0, stderr: '' });
        expect(res.stdout).to.match(/^usage: snippets <command> \[options\]\n/);
        for (const name of COMMANDS) expect(res.stdout).to.match(new RegExp(`^  ${name} `, 'm'));
      });
    }

    it('needs no valid configuration, and creates nothing', async () => {
      const res = await cliIn(
        { PORT: 'eighty', DATABASE_URL: `sqlite:${path.join(dir, 'help', 'db.sqlite3')}` },
        '--help',
      );
      expect(res.code).to.equal(0);
      expect(existsSync(path.join(dir, 'help'))).to.equal(false);
    });
  });

  describe('snippets <command> --help', () => {
    for (const name of COMMANDS) {
      it(`${name} --help prints its usage and options on stdout and exits 0`, async () => {
        const res = await cliIn({ PORT: 'eighty' }, name, '--help');
        expect(res).to.include({ code: 0, stderr: '' });
        expect(res.stdout).to.match(new RegExp(`^usage: snippets ${name}\\b.*\n\n\\S`));
        expect(res.stdout).to.match(/^ {2}-h, --help +show this help$/m);
      });
    }

    it('snippets help createuser is createuser --help', async () => {
      expect(await cli('help', 'createuser')).to.deep.equal(await cli('createuser', '--help'));
    });

    it('--help wins over a missing argument', async () => {
      expect((await cli('createtoken', '--help')).code).to.equal(0);
    });
  });

  describe('misuse: exit 2, one error line and the usage', () => {
    const TOOL_USAGE = /^usage: snippets <command> \[options\] \(snippets --help lists the commands\)$/;
    const CREATEUSER =
      /^usage: snippets createuser USERNAME \[--email E\] \[--password P\] \(snippets createuser --help for more\)$/;

    it('no command', async () => {
      expectMisuse(await cli(), 'snippets: no command given', TOOL_USAGE);
    });

    it('an unknown command', async () => {
      expectMisuse(await cli('frobnicate'), 'snippets: unknown command "frobnicate"', TOOL_USAGE);
    });

    it('help on an unknown command', async () => {
      expectMisuse(await cli('help', 'frobnicate'), 'snippets: unknown command "frobnicate"', TOOL_USAGE);
    });

    it('an unknown option', async () => {
      expectMisuse(
        await cli('createuser', 'erin', '--admin', '--password', 'pw'),
        'snippets createuser: unknown option --admin',
        CREATEUSER,
      );
    });

    it('a missing argument', async () => {
      expectMisuse(await cli('createuser', '--password', 'pw'), 'snippets createuser: missing USERNAME', CREATEUSER);
    });

    it('an extra argument', async () => {
      expectMisuse(
        await cli('createuser', 'erin', 'frank', '--password', 'pw'),
        'snippets createuser: unexpected argument "frank"',
        CREATEUSER,
      );
    });

    it('an option without its value', async () => {
      expectMisuse(
        await cli('createuser', 'erin', '--password'),
        'snippets createuser: --password needs a value',
        CREATEUSER,
      );
    });

    it('a value given to a flag', async () => {
      expectMisuse(
        await cli('deleteuser', 'carol', '--yes=no'),
        'snippets deleteuser: --yes takes no value',
        /^usage: snippets deleteuser USERNAME \[--yes\] /,
      );
    });

    it('a missing required option', async () => {
      expectMisuse(
        await cli('createoauth1token', 'carol'),
        'snippets createoauth1token: missing --consumer KEY',
        /^usage: snippets createoauth1token USERNAME --consumer KEY /,
      );
    });

    it('createuser --email that is not an e-mail address creates no user', async () => {
      expectMisuse(
        await cli('createuser', 'erin', '--email', 'notanemail', '--password', 'pw'),
        'snippets createuser: --email: "notanemail" is not a valid e-mail address',
        CREATEUSER,
      );
      expect((await cli('createtoken', 'erin')).code).to.equal(1);
    });

    it('createuser --email with a valid address creates the user', async () => {
      expect(await cli('createuser', 'erin', '--email', 'erin@example.com', '--password', 'pw')).to.include({
        code: 0,
      });
      const rows = await sql(path.join(dir, 'db.sqlite3'), "SELECT email FROM users WHERE username = 'erin'");
      expect(rows).to.deep.equal([{ email: 'erin@example.com' }]);
    });

    it('createuser with an invalid username', async () => {
      expectMisuse(
        await cli('createuser', 'bad name', '--password', 'pw'),
        'snippets createuser: enter a valid username: up to 150 letters, digits and @/./+/-/_ only',
        CREATEUSER,
      );
    });

    it('rehighlight --batch-size 0', async () => {
      expectMisuse(
        await cli('rehighlight', '--batch-size', '0'),
        'snippets rehighlight: --batch-size must be a positive integer',
        /^usage: snippets rehighlight /,
      );
    });
  });

  describe('configuration errors: exit 1, one line', () => {
    it('a bad variable is named', async () => {
      const res = await cliIn({ PORT: 'eighty' }, 'migrate');
      expect(res).to.include({ code: 1, stdout: '' });
      expect(res.stderr).to.equal('config: PORT: expected an integer from 0 to 65535, got "eighty"\n');
    });

    it('a SQLite file under a missing directory is refused, and the directory is not created', async () => {
      const missing = path.join(dir, 'no', 'such');
      const res = await cliIn({ DATABASE_URL: `sqlite:${path.join(missing, 'db.sqlite3')}` }, 'migrate');
      expect(res).to.include({ code: 1, stdout: '' });
      expect(res.stderr).to.equal(
        `config: DATABASE_URL: the directory ${missing} does not exist (create it, or choose another path)\n`,
      );
      expect(existsSync(path.join(dir, 'no'))).to.equal(false);
    });
  });

  describe('the built binary (dist/server/cli.js), as its own process', () => {
    it('prints what runCommandLine prints, and exits with its code: help 0, a misuse 2, a failure 1, a command 0', async () => {
      const runs = [['--help'], ['frobnicate'], ['changepassword', 'nobody', '--password', 'x'], ['migrate']];
      // The four processes at once: each spends its seconds loading modules, which need not wait for the others'.
      const spawned = await Promise.all(runs.map((args) => cliProcess(env, ...args)));
      for (const [i, args] of runs.entries())
        expect(spawned[i], args.join(' ')).to.deep.equal(await cliIn({}, ...args));
    });

    it('creates a user and a token in the database file, read back by an in-process run', async () => {
      expect(await cliProcess(env, 'createuser', 'hana', '--password', 'pw')).to.include({
        code: 0,
        stdout: 'Created user hana.\n',
      });
      const token = await cliProcess(env, 'createtoken', 'hana');
      expect(token.stdout).to.match(/^[0-9a-f]{40}\n$/);
      expect((await cli('createtoken', 'hana')).stdout).to.equal(token.stdout);
    });
  });
});
