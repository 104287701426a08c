// `snippets usage`: the users whose snippets hold the most bytes, in process through the command's run(). Run on both
// engines.
import { expect } from 'chai';
import { storageUsage } from '../../../server/commands/storage';
import { UsageError } from '../../../server/commands/types';
import { makeUser, resetDatabase } from '../../support/db';
import { api, basic } from '../../support/http';
import { testRuntime } from '../../support/runtime';

async function usage(limit?: string): Promise<string[]> {
  const lines: string[] = [];
  const code = await storageUsage.run(
    { args: [], options: limit === undefined ? {} : { limit } },
    { runtime: testRuntime(), out: (line) => lines.push(line) },
  );
  expect(code).to.equal(0);
  return lines;
}

describe('snippets usage', () => {
  beforeEach(async () => {
    await resetDatabase();
    for (const user of ['alice', 'bob', 'carol']) await makeUser(user);
    const save = (user: string, code: string) =>
      api().post('/snippets/').set('Authorization', basic(user)).send({ code }).expect(201);
    const { id } = (await save('alice', 'a'.repeat(100))).body as { id: number };
    await api()
      .put(`/snippets/${id}/`)
      .set('Authorization', basic('alice'))
      .send({ code: 'b'.repeat(50) })
      .expect(200);
    await save('alice', 'é');
    await save('bob', 'c'.repeat(500));
  });

  it('lists username, snippets, revisions and bytes, tab-separated, the biggest first', async () => {
    expect(await usage()).to.deep.equal([
      'username\tsnippets\trevisions\tbytes',
      'bob\t1\t1\t500',
      'alice\t2\t3\t152',
      'carol\t0\t0\t0',
    ]);
  });

  it('--limit N lists the N biggest', async () => {
    expect(await usage('1')).to.deep.equal(['username\tsnippets\trevisions\tbytes', 'bob\t1\t1\t500']);
  });

  it('--limit that is not a positive integer is a misuse', async () => {
    for (const bad of ['0', '-1', 'ten', '1e3']) {
      try {
        await usage(bad);
        expect.fail(`--limit ${bad} was taken`);
      } catch (err) {
        expect(err, bad).to.be.instanceOf(UsageError);
      }
    }
  });
});
