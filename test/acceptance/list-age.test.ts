// A list row's age: when the snippet was last saved, in words ("3 minutes ago"), the exact time in <time>.
import { expect } from 'chai';
import { ageWords } from '../../server/web/age';
import { makeUser, resetDatabase } from '../support/db';
import { api, apiAt, basic } from '../support/http';
import { testRuntime } from '../support/runtime';

describe('the list rows’ age', () => {
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  it('shows how long ago each snippet was last saved, the saved time in <time datetime>', async () => {
    const { id } = (
      await api().post('/snippets/').set('Authorization', basic('alice')).send({ code: 'x = 1' }).expect(201)
    ).body;
    const [latest] = (await api().get(`/snippets/${id}/revisions/`).expect(200)).body as { saved: string }[];
    const later = Date.parse(latest!.saved) + 3 * 60_000 + 20_000;
    const res = await apiAt(() => later)
      .get('/snippets/')
      .set('Accept', 'text/html')
      .expect(200);
    expect(res.text).to.include(
      ` · <time datetime="${latest!.saved}" title="${latest!.saved.slice(0, 16).replace('T', ' ')} UTC">3 minutes ago</time></span>`,
    );
  });

  it("GET /snippets/saved/?ids= answers when each existing snippet was last saved, its latest revision's time", async () => {
    const create = async (code: string) =>
      (await api().post('/snippets/').set('Authorization', basic('alice')).send({ code }).expect(201)).body as {
        id: number;
      };
    const [one, two] = [await create('a = 1'), await create('b = 2')];
    await api().put(`/snippets/${one.id}/`).set('Authorization', basic('alice')).send({ code: 'a = 2' }).expect(200);
    const latest = async (id: number) =>
      ((await api().get(`/snippets/${id}/revisions/`).expect(200)).body as { saved: string }[])[0]!.saved;
    const res = await api().get(`/snippets/saved/?ids=${two.id},${one.id},${one.id},999999`).expect(200);
    expect((res.body as { items: { id: number; saved: string }[] }).items.sort((a, b) => a.id - b.id)).to.deep.equal([
      { id: one.id, saved: await latest(one.id) },
      { id: two.id, saved: await latest(two.id) },
    ]);
    expect((await api().get('/snippets/saved/').expect(200)).body).to.deep.equal({ items: [] });
    const bad = await api().get('/snippets/saved/?ids=1,x').expect(400);
    expect(bad.body).to.have.property('ids');
    await api()
      .get(`/snippets/saved/?ids=${Array.from({ length: 1001 }, (_, i) => i + 1).join(',')}`)
      .expect(400);
  });

  it('a page of 30 rows reads their saved times in one statement, not one each', async () => {
    for (let i = 0; i < 30; i++)
      await api()
        .post('/snippets/')
        .set('Authorization', basic('alice'))
        .send({ code: `x = ${i}` })
        .expect(201);
    const { engine } = testRuntime().store;
    const select = engine.select.bind(engine);
    const revisionReads: string[] = [];
    engine.select = ((sql: string, ...rest: unknown[]) => {
      if (sql.includes('snippet_revisions')) revisionReads.push(sql);
      return (select as (...a: unknown[]) => Promise<unknown[]>)(sql, ...rest);
    }) as typeof engine.select;
    try {
      const page = await api().get('/snippets/?limit=30').set('Accept', 'text/html').expect(200);
      expect(page.text.match(/<time datetime=/g)).to.have.length(30);
    } finally {
      engine.select = select;
    }
    expect(revisionReads).to.have.length(1);
  });

  it('words an age in its largest whole unit', () => {
    const t = Date.parse('2026-11-26T00:00:00.000Z');
    expect(ageWords('2026-11-26T00:00:00.000Z', t + 30_000)).to.equal('just now');
    expect(ageWords('2026-11-26T00:00:00.000Z', t + 60_000)).to.equal('1 minute ago');
    expect(ageWords('2026-11-26T00:00:00.000Z', t + 5 * 3_600_000)).to.equal('5 hours ago');
    expect(ageWords('2026-11-26T00:00:00.000Z', t + 3 * 86_400_000)).to.equal('3 days ago');
    expect(ageWords('2026-11-26T00:00:00.000Z', t - 5_000), 'a clock a little behind').to.equal('just now');
  });
});
