// The revision thinning (docs/api.md "History"): the newest SNIPPET_REVISIONS_KEEP revisions stay, and of the older
// ones the last of each UTC day, SNIPPET_REVISIONS_DAILY at most; numbering, restore and diff stay right. Saves are
// timed by the app's clock, moved a day at a time. Run on both engines.
import { expect } from 'chai';
import { loadConfig } from '../../src/config';
import { select } from '../../src/store/select';
import { makeUser, resetDatabase } from '../support/db';
import { api, apiAt, basic } from '../support/http';
import { testStore } from '../support/runtime';

const as = { Authorization: basic('alice') };
const DAY = 86_400_000;

describe('revision thinning', () => {
  let clock = Date.parse('2026-11-01T08:00:00Z');
  const at = () => apiAt(() => clock);
  let saved: { keep: number; daily: number };
  before(() => {
    const store = testStore();
    saved = { keep: store.revisionsKeep, daily: store.revisionsDaily };
    store.revisionsKeep = 3;
    store.revisionsDaily = 2;
  });
  after(() => {
    Object.assign(testStore(), { revisionsKeep: saved.keep, revisionsDaily: saved.daily });
  });
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  const numbers = async (id: number) =>
    ((await api().get(`/snippets/${id}/revisions/`).expect(200)).body as { revision: number }[]).map((r) => r.revision);

  /** `saves` saves on the clock's day, a minute apart, code `v<n>`; then the clock moves to the next day. */
  async function day(id: number | undefined, saves: number, first: number): Promise<number> {
    let snippet = id;
    for (let n = first; n < first + saves; n++) {
      clock += 60_000;
      if (snippet === undefined)
        snippet = (
          (
            await at()
              .post('/snippets/')
              .set(as)
              .send({ code: `v${n}` })
              .expect(201)
          ).body as { id: number }
        ).id;
      else
        await at()
          .put(`/snippets/${snippet}/`)
          .set(as)
          .send({ code: `v${n}` })
          .expect(200);
    }
    clock += DAY;
    return snippet!;
  }

  it('keeps the newest 3, then the last revision of each day, 2 days at most', async () => {
    const id = await day(undefined, 5, 1); // revisions 1-5 on day 1
    await day(id, 3, 6); // 6-8 on day 2
    await day(id, 4, 9); // 9-12 on day 3
    expect(await numbers(id)).to.deep.equal([12, 11, 10, 8, 5]);
    await day(id, 3, 13); // 13-15 on day 4: 12 becomes day 3's, and day 1's (5) is past the maximum
    expect(await numbers(id)).to.deep.equal([15, 14, 13, 12, 8]);
    expect((await api().get(`/snippets/${id}/`).expect(200)).headers.etag).to.equal('"15"');
  });

  it('numbering goes on; a kept revision restores as a new one, a dropped one is 404; a diff runs from the revision kept before', async () => {
    const id = await day(undefined, 5, 1);
    await day(id, 3, 6);
    expect(await numbers(id)).to.deep.equal([8, 7, 6, 5]);
    expect((await api().get(`/snippets/${id}/revisions/4/`)).status).to.equal(404);
    await at().post(`/snippets/${id}/revisions/4/restore/`).set(as).expect(404);
    const restored = await at().post(`/snippets/${id}/revisions/5/restore/`).set(as).expect(200);
    expect(restored.body.code).to.equal('v5');
    expect(restored.headers.etag).to.equal('"9"');
    // The restore (revision 9) pushed 6 out of the newest, and 7 is day 2's later one: 6 is dropped.
    expect(await numbers(id)).to.deep.equal([9, 8, 7, 5]);
    // Revision 7's predecessor is gone: its diff runs from 5, the newest kept below it, not from nothing.
    const diff = (await api().get(`/snippets/${id}/revisions/7/diff/`).expect(200)).text;
    expect(diff).to.match(/\n--- snippet-\d+\trevision 5,.*\n\+\+\+ snippet-\d+\trevision 7,/);
    expect(diff).to.include('-v5').and.to.include('+v7');
  });

  /** The owner's counted bytes and the bytes its kept revisions hold: the thinning must keep them equal. */
  async function bytes(): Promise<[number, number]> {
    const [row] = await select<{ counted: number; held: number | null }>(
      testStore(),
      `SELECT (SELECT c.stored_bytes FROM user_storage c WHERE c.user_id = u.id) AS counted, (SELECT SUM(r.bytes)
         FROM snippet_revisions r JOIN snippets s ON s.id = r.snippet_id WHERE s.owner_id = u.id) AS held
       FROM users u WHERE u.username = ?`,
      ['alice'],
    );
    return [Number(row!.counted), Number(row!.held ?? 0)];
  }

  it("counts the bytes each thinning frees: the owner's count stays the bytes of the revisions kept", async () => {
    const id = await day(undefined, 5, 1);
    await day(id, 3, 6);
    await day(id, 4, 9);
    await day(id, 3, 13);
    expect(await numbers(id)).to.deep.equal([15, 14, 13, 12, 8]);
    const [counted, held] = await bytes();
    expect(counted).to.equal(held).and.to.equal(14); // the codes v8, v12, v13, v14, v15
  });

  it('cuts a history longer than the policy holds at once, beyond the keys a save reads (kept under KEEP=0)', async () => {
    testStore().revisionsKeep = 0;
    let id: number;
    try {
      id = await day(undefined, 9, 1); // 1-9 on one day, every one kept
    } finally {
      testStore().revisionsKeep = 3;
    }
    // The next day, 10 pushes 7 out of the newest three: 7 goes (8 is its day's later one), and of the older ones the
    // two newest stay, 6 and 5; 4 to 1 go, past the keys a steady history holds there.
    await day(id, 1, 10);
    expect(await numbers(id)).to.deep.equal([10, 9, 8, 6, 5]);
    const [counted, held] = await bytes();
    expect(counted).to.equal(held);
  });

  it('SNIPPET_REVISIONS_KEEP=0 keeps every revision', async () => {
    testStore().revisionsKeep = 0;
    try {
      const id = await day(undefined, 6, 1);
      expect(await numbers(id)).to.deep.equal([6, 5, 4, 3, 2, 1]);
    } finally {
      testStore().revisionsKeep = 3;
    }
  });

  it('by default keeps the newest 50 and 100 daily ones', () => {
    const config = loadConfig({});
    expect([config.SNIPPET_REVISIONS_KEEP, config.SNIPPET_REVISIONS_DAILY]).to.deep.equal([50, 100]);
  });
});
