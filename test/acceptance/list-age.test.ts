// A list row's age: when the snippet was last saved, in words ("3 minutes ago"), the exact time in <time>.
import { expect } from 'chai';
import { ageWords } from '../../server/web/age';
import { makeUser, resetDatabase } from '../support/db';
import { api, apiAt, basic } from '../support/http';

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

  it('words an age in its largest whole unit', () => {
    const t = Date.parse('2026-11-26T00:00:00.000Z');
    expect(ageWords('2026-11-26T00:00:00.000Z', t + 30_000)).to.equal('just now');
    expect(ageWords('2026-11-26T00:00:00.000Z', t + 60_000)).to.equal('1 minute ago');
    expect(ageWords('2026-11-26T00:00:00.000Z', t + 5 * 3_600_000)).to.equal('5 hours ago');
    expect(ageWords('2026-11-26T00:00:00.000Z', t + 3 * 86_400_000)).to.equal('3 days ago');
    expect(ageWords('2026-11-26T00:00:00.000Z', t - 5_000), 'a clock a little behind').to.equal('just now');
  });
});
