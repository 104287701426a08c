// USER_QUOTA_BYTES: the bytes of title and code a user's kept revisions may hold (docs/operations.md "Storage per
// user"). A save past it is 413 with a detail and stores nothing; a delete gives its bytes back. Run on both engines.
import { expect } from 'chai';
import { select } from '../../src/store/select';
import { assertRoomFor } from '../../src/store/snippets/usage';
import { makeUser, resetDatabase } from '../support/db';
import { readsDuring } from '../support/engine';
import { api, basic, login } from '../support/http';
import { testRuntime, testStore } from '../support/runtime';

const as = (user: string) => ({ Authorization: basic(user) });
const QUOTA = 1000;

async function stored(username: string): Promise<number> {
  const [row] = await select<{ bytes: number }>(
    testStore(),
    'SELECT c.stored_bytes AS bytes FROM user_storage c JOIN users u ON u.id = c.user_id WHERE u.username = ?',
    [username],
  );
  return Number(row?.bytes ?? 0);
}

/** The bytes the user's revisions really hold, summed: the counter must always equal it. */
async function summed(username: string): Promise<number> {
  const [row] = await select<{ bytes: number | null }>(
    testStore(),
    'SELECT SUM(r.bytes) AS bytes FROM snippet_revisions r JOIN snippets s ON s.id = r.snippet_id JOIN users u ON u.id = s.owner_id WHERE u.username = ?',
    [username],
  );
  return Number(row!.bytes ?? 0);
}

const count = async (sql: string) => Number((await select<{ n: number }>(testStore(), sql))[0]!.n);

describe('USER_QUOTA_BYTES', () => {
  let saved: number;
  before(() => {
    // The store's settings are read at each save; the suite's store is its own.
    saved = testStore().quotaBytes;
    testStore().quotaBytes = QUOTA;
  });
  after(() => {
    testStore().quotaBytes = saved;
  });
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    await makeUser('bob');
  });

  describe('POST /snippets/ past the quota', () => {
    it('responds 413 with a detail naming the quota, and stores nothing', async () => {
      await api()
        .post('/snippets/')
        .set(as('alice'))
        .send({ title: 'ab', code: 'x'.repeat(598) })
        .expect(201);
      const res = await api()
        .post('/snippets/')
        .set(as('alice'))
        .send({ code: 'y'.repeat(401) })
        .expect(413);
      expect(res.body).to.deep.equal({
        detail: `This save would take your snippets past your storage quota of ${QUOTA} bytes (they hold 600 bytes now). Delete snippets you no longer need to free space.`,
      });
      expect(await count('SELECT COUNT(*) AS n FROM snippets')).to.equal(1);
      expect(await count('SELECT COUNT(*) AS n FROM snippet_revisions')).to.equal(1);
      expect(await stored('alice')).to.equal(600);
      // Up to the quota exactly is allowed.
      await api()
        .post('/snippets/')
        .set(as('alice'))
        .send({ code: 'y'.repeat(400) })
        .expect(201);
      expect(await stored('alice')).to.equal(QUOTA);
    });

    it('is refused before the code is highlighted: a refusal costs no highlighting worker', async () => {
      await api()
        .post('/snippets/')
        .set(as('alice'))
        .send({ code: 'x'.repeat(1000) })
        .expect(201);
      const { highlighter } = testRuntime();
      const render = highlighter.render;
      let rendered = 0;
      highlighter.render = (...args) => (rendered++, render.apply(highlighter, args));
      try {
        await api().post('/snippets/').set(as('alice')).send({ code: 'x' }).expect(413);
        expect(rendered).to.equal(0);
        await api().post('/snippets/').set(as('bob')).send({ code: 'x' }).expect(201);
        expect(rendered).to.equal(1);
      } finally {
        highlighter.render = render;
      }
    });

    it('is judged by the count read with the credential (Basic, Token, session): a create that fits reads it no second time', async () => {
      const { body } = await api()
        .post('/api-token-auth/')
        .send({ username: 'alice', password: 'alicepass' })
        .expect(200);
      const token = (body as { token: string }).token;
      const { agent, csrf } = await login();
      const creates: [string, (code: string) => ReturnType<ReturnType<typeof api>['post']>][] = [
        ['Basic', (code) => api().post('/snippets/').set(as('alice')).send({ code })],
        ['Token', (code) => api().post('/snippets/').set('Authorization', `Token ${token}`).send({ code })],
        ['session', (code) => agent.post('/snippets/').set('X-CSRFToken', csrf).send({ code })],
      ];
      for (const [scheme, create] of creates) {
        const reads: string[] = [];
        await readsDuring(
          testStore(),
          (sql) => reads.push(sql),
          () => create('x'.repeat(300)).expect(201),
        );
        expect(reads, `${scheme}: one read, the credential's, with the count`).to.have.length(1);
        expect(reads[0]).to.include('user_storage');
      }
      expect(await stored('alice')).to.equal(900);
      for (const [scheme, create] of creates)
        expect((await create('y'.repeat(101))).status, `${scheme}: past the quota`).to.equal(413);
      expect(await stored('alice')).to.equal(900);
    });

    it('judges a refusal on the count as it is now, not as the credential read it (a delete since freed space)', async () => {
      const alice = (await select<{ id: number }>(testStore(), "SELECT id FROM users WHERE username = 'alice'"))[0]!;
      // The credential's lookup read a full quota; nothing is stored now.
      const read = { id: Number(alice.id), username: 'alice', storedBytes: QUOTA };
      await assertRoomFor(testStore(), read, 10);
      // And a count that is full now refuses, whatever was read before.
      await api()
        .post('/snippets/')
        .set(as('alice'))
        .send({ code: 'x'.repeat(995) })
        .expect(201);
      const refused = await assertRoomFor(testStore(), read, 10).then(
        () => undefined,
        (err: Error) => err,
      );
      expect(refused?.constructor.name).to.equal('OverQuota');
    });

    it('counts UTF-8 bytes, not characters: 250 four-byte characters are 1,000 bytes', async () => {
      await api()
        .post('/snippets/')
        .set(as('alice'))
        .send({ code: '😀'.repeat(250) })
        .expect(201);
      expect(await stored('alice')).to.equal(1000);
      await api().post('/snippets/').set(as('alice')).send({ code: 'a' }).expect(413);
    });

    it('is per user: another user saves as before', async () => {
      await api()
        .post('/snippets/')
        .set(as('alice'))
        .send({ code: 'x'.repeat(1000) })
        .expect(201);
      await api().post('/snippets/').set(as('alice')).send({ code: 'x' }).expect(413);
      await api()
        .post('/snippets/')
        .set(as('bob'))
        .send({ code: 'x'.repeat(1000) })
        .expect(201);
    });

    it('answers /trpc with PAYLOAD_TOO_LARGE and the same detail', async () => {
      await api()
        .post('/snippets/')
        .set(as('alice'))
        .send({ code: 'x'.repeat(1000) })
        .expect(201);
      const res = await api().post('/trpc/snippets.create').set(as('alice')).send({ code: 'x' }).expect(413);
      expect(res.body.error.data).to.include({ code: 'PAYLOAD_TOO_LARGE', httpStatus: 413 });
      expect(res.body.error.message).to.match(/storage quota of 1000 bytes/);
    });
  });

  describe('PUT and restore past the quota', () => {
    it('respond 413 and leave the snippet, its revisions and the count as they were', async () => {
      const { id } = (
        await api()
          .post('/snippets/')
          .set(as('alice'))
          .send({ code: 'x'.repeat(600) })
          .expect(201)
      ).body as { id: number };
      await api()
        .put(`/snippets/${id}/`)
        .set(as('alice'))
        .send({ code: 'y'.repeat(300) })
        .expect(200);
      await api()
        .put(`/snippets/${id}/`)
        .set(as('alice'))
        .send({ code: 'z'.repeat(101) })
        .expect(413);
      await api().post(`/snippets/${id}/revisions/1/restore/`).set(as('alice')).expect(413);
      const now = (await api().get(`/snippets/${id}/`).expect(200)) as {
        body: { code: string };
        headers: Record<string, string>;
      };
      expect(now.body.code).to.equal('y'.repeat(300));
      expect(now.headers.etag).to.equal('"2"');
      expect(await count('SELECT COUNT(*) AS n FROM snippet_revisions')).to.equal(2);
      expect(await stored('alice')).to.equal(900);
    });
  });

  describe("the owner's DELETE", () => {
    it('gives the bytes of every revision back: the next save goes through', async () => {
      const { id } = (
        await api()
          .post('/snippets/')
          .set(as('alice'))
          .send({ code: 'x'.repeat(500) })
          .expect(201)
      ).body as { id: number };
      await api()
        .put(`/snippets/${id}/`)
        .set(as('alice'))
        .send({ code: 'y'.repeat(500) })
        .expect(200);
      await api().post('/snippets/').set(as('alice')).send({ code: 'z' }).expect(413);
      await api().delete(`/snippets/${id}/`).set(as('alice')).expect(204);
      expect(await stored('alice')).to.equal(0);
      await api()
        .post('/snippets/')
        .set(as('alice'))
        .send({ code: 'z'.repeat(1000) })
        .expect(201);
    });
  });

  it("counts every one of a user's concurrent saves once, their first included, and refuses exactly those past the quota", async () => {
    // alice has no row of user_storage yet: the first counts meet (on MySQL/MariaDB one loses a deadlock, run again).
    const creates = await Promise.all(
      Array.from({ length: 12 }, () =>
        api()
          .post('/snippets/')
          .set(as('alice'))
          .send({ code: 'x'.repeat(100) }),
      ),
    );
    expect(creates.map((r) => r.status).sort()).to.deep.equal([...Array(10).fill(201), 413, 413]);
    const [gone, kept] = creates.filter((r) => r.status === 201).map((r) => (r.body as { id: number }).id);
    await api().delete(`/snippets/${gone}/`).set(as('alice')).expect(204);
    const puts = await Promise.all(
      Array.from({ length: 3 }, () =>
        api()
          .put(`/snippets/${kept}/`)
          .set(as('alice'))
          .send({ code: 'y'.repeat(50) }),
      ),
    );
    expect(puts.map((r) => r.status).sort()).to.deep.equal([200, 200, 413]);
    expect(await stored('alice'))
      .to.equal(await summed('alice'))
      .and.to.equal(1000);
  });

  it('keeps the count equal to the bytes of the revisions kept, through saves, thinning, restores and deletes', async () => {
    const keep = testStore().revisionsKeep;
    testStore().revisionsKeep = 2;
    try {
      const ids: number[] = [];
      for (let i = 0; i < 3; i++)
        ids.push(
          (
            (
              await api()
                .post('/snippets/')
                .set(as('alice'))
                .send({ title: `t${i}`, code: 'é'.repeat(10 + i) })
                .expect(201)
            ).body as { id: number }
          ).id,
        );
      for (let i = 0; i < 5; i++)
        await api()
          .put(`/snippets/${ids[0]}/`)
          .set(as('alice'))
          .send({ code: 'ж'.repeat(i + 1) })
          .expect(200);
      await api().post(`/snippets/${ids[0]}/revisions/6/restore/`).set(as('alice')).expect(200);
      await api().delete(`/snippets/${ids[1]}/`).set(as('alice')).expect(204);
      expect(await stored('alice'))
        .to.equal(await summed('alice'))
        .and.to.be.above(0);
    } finally {
      testStore().revisionsKeep = keep;
    }
  });
});
