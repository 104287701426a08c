// A full disk (docs/operations.md "A full disk"): writes that add data answer 507 with a detail, never 500; reads,
// sign-ins, token checks and the owner's DELETE go on, and /readyz says the database cannot take writes until a write
// goes through again. The disk is SQLite's own limit, PRAGMA max_page_count on the writer: past it SQLite fails a write
// with SQLITE_FULL, the very error a full filesystem gives (https://www.sqlite.org/rescode.html#full), without a loop
// device (which needs root). The suite's store, so on the MariaDB run it is skipped; MariaDB's words for a full disk
// are mapped by test/src/store/errors.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createRuntime } from '../../src/runtime';
import { migrate } from '../../src/store/migrate';
import { writesRefusedBecause } from '../../src/store/readiness';
import { testConfig } from '../support/config';
import { isSqlite } from '../support/engine';
import { DISK_FULL } from '../../src/store/errors';
import { tokenFor } from '../../src/auth/tokens';
import { select } from '../../src/store/select';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic } from '../support/http';
import { testStore } from '../support/runtime';

const as = { Authorization: basic('alice') };
const BIG = 'x'.repeat(99_000);

/** Leaves the file no free page and no room to grow: the next write that needs a page fails with SQLITE_FULL. */
async function fillDisk(): Promise<void> {
  const { sequelize } = testStore();
  await sequelize.query('VACUUM');
  const [[{ page_count: pages }]] = (await sequelize.query('PRAGMA page_count')) as unknown as [
    [{ page_count: number }],
  ];
  await sequelize.query(`PRAGMA max_page_count = ${pages}`);
}

describe('a full disk (SQLite, max_page_count)', () => {
  let id: number;
  let token: string;
  before(function () {
    if (!isSqlite(testStore())) {
      console.log('      skipped: the suite runs on MySQL/MariaDB (DATABASE_URL); this one needs SQLite');
      this.skip();
    }
  });
  beforeEach(async () => {
    await resetDatabase();
    const alice = await makeUser('alice');
    token = await tokenFor(testStore(), alice);
    id = (
      (await api().post('/snippets/').set(as).send({ title: 'big', code: BIG, language: 'plaintext' }).expect(201))
        .body as { id: number }
    ).id;
    await api()
      .put(`/snippets/${id}/`)
      .set(as)
      .send({ code: `${BIG}y`, language: 'plaintext' })
      .expect(200);
    await fillDisk();
  });
  afterEach(async () => {
    await testStore().sequelize.query('PRAGMA max_page_count = 4294967294');
    testStore().diskFullSince = undefined;
  });

  it('POST /snippets/ and /trpc snippets.create answer 507 with a detail, not 500 nor a 503 to retry; nothing is stored', async () => {
    const res = await api().post('/snippets/').set(as).send({ code: BIG, language: 'plaintext' });
    expect(res.status, JSON.stringify(res.body)).to.equal(507);
    expect(res.body).to.deep.equal({ detail: DISK_FULL });
    expect(res.headers).not.to.have.property('retry-after');
    const trpc = await api().post('/trpc/snippets.create').set(as).send({ code: BIG, language: 'plaintext' });
    expect(trpc.status).to.equal(507);
    expect(trpc.body.error.message).to.equal(DISK_FULL);
    await api()
      .put(`/snippets/${id}/`)
      .set(as)
      .send({ code: `${BIG}z`, language: 'plaintext' })
      .expect(507);
    expect((await api().get('/snippets/').expect(200)).body).to.have.length(1);
  });

  it('reads, Basic and Token checks, the token endpoint and a session login keep working', async () => {
    await api().post('/snippets/').set(as).send({ code: BIG, language: 'plaintext' }).expect(507);
    await api().get(`/snippets/${id}/`).expect(200);
    await api().get(`/snippets/${id}/revisions/`).expect(200);
    await api().get('/users/').set(as).expect(200);
    await api().get('/users/').set('Authorization', `Token ${token}`).expect(200);
    expect(
      (await api().post('/api-token-auth/').send({ username: 'alice', password: 'alicepass' }).expect(200)).body,
    ).to.deep.equal({ token });
    const agent = (await import('supertest')).agent(api().get('/').app);
    const form = await agent.get('/api-auth/login/').expect(200);
    const csrf = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(form.text)![1]!;
    await agent
      .post('/api-auth/login/')
      .type('form')
      .send({ username: 'alice', password: 'alicepass', csrfmiddlewaretoken: csrf, next: '/snippets/' })
      .expect(302);
  });

  it("the owner's DELETE answers 204 and frees the space: a save goes through after it", async () => {
    await api()
      .post('/snippets/')
      .set(as)
      .send({ code: BIG.slice(0, BIG.length / 2), language: 'plaintext' })
      .expect(507);
    await api().delete(`/snippets/${id}/`).set(as).expect(204);
    const [row] = await select<{ n: number }>(testStore(), 'SELECT COUNT(*) AS n FROM snippet_revisions');
    expect(Number(row!.n)).to.equal(0);
    // Half the size of what was deleted (the search index keeps tombstones until it merges): it did not fit before.
    const half = { code: BIG.slice(0, BIG.length / 2), language: 'plaintext' };
    await api().post('/snippets/').set(as).send(half).expect(201);
  });

  it('/readyz answers 200 "read-only" with a detail (503 with ?writes) while writes fail, "ready" again after one succeeds', async () => {
    await api().get('/readyz').expect(200, { status: 'ready' });
    await api().post('/snippets/').set(as).send({ code: BIG, language: 'plaintext' }).expect(507);
    const res = await api().get('/readyz').expect(200);
    expect(res.body.status).to.equal('read-only');
    expect(res.body.detail).to.match(/^The database cannot take writes: its disk has been full since \d{4}-/);
    const strict = await api().get('/readyz?writes').expect(503);
    expect(strict.body.status).to.equal('read-only');
    await api().delete(`/snippets/${id}/`).set(as).expect(204);
    await api().get('/readyz').expect(200, { status: 'ready' });
    await api().get('/readyz?writes').expect(200, { status: 'ready' });
  });
});

describe("writesRefusedBecause on a SQLite file's filesystem", () => {
  it('is undefined on a filesystem with room, and names the time once a write found the disk full', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'snippets-disk-'));
    const runtime = createRuntime(testConfig({ DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite3')}` }));
    try {
      await migrate(runtime.store);
      expect(await writesRefusedBecause(runtime.store)).to.equal(undefined);
      runtime.store.diskFullSince = Date.parse('2026-11-25T10:00:00Z');
      expect(await writesRefusedBecause(runtime.store)).to.equal(
        'The database cannot take writes: its disk has been full since 2026-11-25T10:00:00.000Z.',
      );
    } finally {
      await runtime.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
