// The runtime: everything the service holds, built from one configuration; two live side by side in one process.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { createApp } from '../../server/app';
import { createUser } from '../../src/auth/users';
import { createRuntime, workerPools, type Runtime } from '../../src/runtime';
import { migrate } from '../../src/store/migrate';
import { testConfig } from '../support/config';
import { basic } from '../support/http';

describe('createRuntime', () => {
  let dir: string;
  const opened: Runtime[] = [];
  const open = async (file: string) => {
    const runtime = createRuntime(testConfig({ DATABASE_URL: `sqlite:${path.join(dir, file)}` }));
    opened.push(runtime);
    await migrate(runtime.store);
    await createUser(runtime.store, 'alice', 'alicepass', { iterations: 1000 });
    return runtime;
  };

  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'snippets-runtime-'))));
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((r) => r.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  describe('two runtimes on two databases in one process', () => {
    it('each app reads and writes its own database, and closing one leaves the other serving', async () => {
      const [one, two] = [await open('one.db'), await open('two.db')];
      const [a, b] = [supertest(createApp(one)), supertest(createApp(two))];
      await a
        .post('/snippets/')
        .set('Authorization', basic('alice', 'alicepass'))
        .send({ code: 'one', title: 'in one' })
        .expect(201);
      await b.post('/snippets/').set('Authorization', basic('alice', 'alicepass')).send({ code: 'two' }).expect(201);
      await b
        .post('/snippets/')
        .set('Authorization', basic('alice', 'alicepass'))
        .send({ code: 'two again' })
        .expect(201);
      expect((await a.get('/snippets/').expect(200)).body.map((s: { code: string }) => s.code)).to.deep.equal(['one']);
      expect((await b.get('/snippets/').expect(200)).body.map((s: { code: string }) => s.code)).to.deep.equal([
        'two',
        'two again',
      ]);
      // Each store's model hook renders with its runtime's highlighter: the stored document is its own snippet's.
      expect((await a.get('/snippets/1/highlight/').expect(200)).text).to.include('<h2>in one</h2>');

      await one.close();
      await b.post('/snippets/').set('Authorization', basic('alice', 'alicepass')).send({ code: 'after' }).expect(201);
      expect((await b.get('/snippets/').expect(200)).body).to.have.length(3);
    });
  });

  describe('close()', () => {
    it('closes the database connections it opened: its store answers no more statements', async () => {
      const runtime = await open('closed.db');
      await runtime.store.sequelize.query('SELECT 1');
      await runtime.close();
      const err = await runtime.store.sequelize.query('SELECT 1').then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).to.be.an('error');
    });

    it('leaves the worker pools it was given (pools) working, for the runtimes that share them', async () => {
      const config = testConfig({ DATABASE_URL: `sqlite:${path.join(dir, 'shared.db')}` });
      const pools = workerPools(config);
      try {
        const runtime = createRuntime(config, { pools });
        expect(runtime.highlighter).to.equal(pools.highlighter);
        expect(runtime.differ).to.equal(pools.differ);
        // Submitted before close(): a pool closed under it would answer null.
        const rendering = runtime.highlighter.highlight('x = 1', 'python');
        await runtime.close();
        expect(await rendering).to.include('hljs-');
      } finally {
        await Promise.all([pools.highlighter.close(), pools.differ.close()]);
      }
    });

    it('resolves once however often it is called', async () => {
      const runtime = await open('twice.db');
      await Promise.all([runtime.close(), runtime.close()]);
      await runtime.close();
    });
  });
});
