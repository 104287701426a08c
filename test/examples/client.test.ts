// examples/client.ts: the typed tRPC client against createApp() listening on an ephemeral port.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { TRPCClientError } from '@trpc/client';
import { expect } from 'chai';
import { authorizationHeader, describeError, runExample, snippetsClient } from '../../examples/client';
import { makeUser, resetDatabase } from '../support/db';
import { listening, type Listening } from '../support/http';

const KEYS = ['id', 'owner', 'title', 'code', 'linenos', 'language', 'style'];
const ROOT = path.resolve(__dirname, '../..');

/** Runs the example under tsx; asynchronously, since the server answering it lives in this process. */
function runScript(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'examples/client.ts', ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('examples/client.ts', () => {
  let served: Listening;
  before(async () => (served = await listening()));
  after(() => served.close());

  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  describe('runExample with Basic auth', () => {
    it('creates, lists, updates, reads the history, is refused a stale write, diffs, restores and deletes a snippet, which is then NOT_FOUND', async () => {
      const lines: string[] = [];
      const run = await runExample(served.base, { username: 'alice', password: 'alicepass' }, (line) =>
        lines.push(line),
      );

      expect(Object.keys(run.created)).to.deep.equal(KEYS);
      expect(run.created).to.include({
        owner: 'alice',
        title: 'Hello',
        code: 'print("hello")',
        linenos: false,
        language: 'python',
        style: 'friendly',
      });
      expect(run.listed).to.equal(true);
      expect(run.found).to.equal(true);
      expect(run.updated).to.deep.equal({ ...run.created, code: 'print("hello, world")', linenos: true });
      expect(run.revisions).to.deep.equal([2, 1]);
      expect(run.staleWrite).to.equal('PRECONDITION_FAILED');
      expect(run.diff).to.include('-print("hello")').and.include('+print("hello, world")');
      expect(run.restored).to.deep.equal(run.created);
      expect(run.deletedId).to.equal(run.created.id);
      expect(run.afterDelete).to.equal('NOT_FOUND');
      expect(lines).to.have.length(10);
      expect((await snippetsClient(served.base).snippets.list.query()).items).to.deep.equal([]);
    });
  });

  describe('with a wrong password', () => {
    it('is refused 401 before anything is created', async () => {
      const err = await runExample(served.base, { username: 'alice', password: 'wrong' }).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(TRPCClientError);
      // The chain refuses before tRPC runs, so today the body is REST's `detail`; a tRPC-shaped refusal would give the code.
      expect(describeError(err)).to.equal('UNAUTHORIZED: Invalid username/password.');
      expect((await snippetsClient(served.base).snippets.list.query()).items).to.deep.equal([]);
    });
  });

  describe('authorizationHeader', () => {
    it('sends Basic credentials base64-encoded and a Token key after the literal word Token', () => {
      expect(authorizationHeader({ username: 'alice', password: 'a:b' })).to.equal(
        `Basic ${Buffer.from('alice:a:b').toString('base64')}`,
      );
      expect(authorizationHeader({ token: '9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b' })).to.equal(
        'Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b',
      );
    });
  });

  describe('as a script', () => {
    it('runs against BASE with USER:PASSWORD and prints each step', async () => {
      const { code, stdout } = await runScript(served.base, 'alice:alicepass');
      expect(code).to.equal(0);
      expect(stdout).to.match(/^created snippet \d+ owned by alice/m);
      expect(stdout).to.include('reading it again: NOT_FOUND');
    });

    it('exits 1 naming the refusal when the password is wrong', async () => {
      const { code, stderr } = await runScript(served.base, 'alice:wrong');
      expect(code).to.equal(1);
      expect(stderr.trim()).to.equal('UNAUTHORIZED: Invalid username/password.');
    });

    it('exits 1 with a usage line when credentials are missing', async () => {
      const { code, stderr } = await runScript(served.base);
      expect(code).to.equal(1);
      expect(stderr).to.match(/^usage: /);
    });
  });
});
