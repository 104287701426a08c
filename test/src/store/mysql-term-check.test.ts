// MySQL/MariaDB's check of a search term (src/store/mysql/term-check.ts): a caseless REGEXP goes before the lowered
// match and must let through every row the lowered match finds. Checked on the server itself, for every character of
// the Basic Multilingual Plane that its LOWER() turns into ASCII, and through the API for the characters that make
// the rule's exceptions. On the MariaDB of the suite's MariaDB pass; skipped on SQLite, whose check is its own.
import { expect } from 'chai';
import { caselessPattern } from '../../../src/store/mysql/term-check';
import { makeUser, resetDatabase } from '../../support/db';
import { api, basic } from '../../support/http';
import { isSqlite } from '../../support/engine';
import { testStore } from '../../support/runtime';

describe('MySQL/MariaDB: a term looked for before it is lowered', function () {
  before(function () {
    if (isSqlite(testStore())) this.skip();
  });

  it("lets through every character whose LOWER() is an ASCII character a pattern is made for (the server's own tables)", async () => {
    const engine = testStore().engine;
    const chars: string[] = [];
    for (let cp = 0x80; cp <= 0xffff; cp++) if (cp < 0xd800 || cp > 0xdfff) chars.push(String.fromCodePoint(cp));
    const [read] = await engine.select<{ lowered: string }>(
      'SELECT LOWER(CONVERT(? USING utf8mb4) COLLATE utf8mb4_bin) AS lowered',
      [chars.join('\n')],
      'read',
      false,
    );
    const pairs = read!.lowered
      .split('\n')
      .map((lower, at) => [chars[at]!, lower] as const)
      .filter(([, lower]) => lower.length === 1 && lower.charCodeAt(0) < 0x80);
    // İ (U+0130) to i and the Kelvin sign (U+212A) to k on MariaDB 10.11: the rule's reasons, so the table is read.
    expect(pairs.map(([ch]) => ch)).to.include.members(['\u0130', '\u212a']);
    for (const [ch, lower] of pairs) {
      const pattern = caselessPattern(`a${lower}b`);
      if (pattern === undefined) continue;
      const [row] = await engine.select<{ hit: number }>(
        'SELECT CONVERT(? USING utf8mb4) COLLATE utf8mb4_bin REGEXP ? AS hit',
        [`a${ch}b`, pattern],
        'read',
        false,
      );
      expect(Number(row!.hit), `U+${ch.codePointAt(0)!.toString(16)} lowers to ${lower}`).to.equal(1);
    }
  });

  it('answers what the lowered match answers: the Kelvin sign for k, İ for i, not the long s for s', async () => {
    await resetDatabase();
    await makeUser('alice');
    const codes = ['\u212aEY = 1', '\u0130f x', '\u017felf.x', 'self.x', 'a.b+c(d)[e]'];
    for (const code of codes)
      await api()
        .post('/snippets/')
        .set({ Authorization: basic('alice') })
        .send({ code })
        .expect(201);
    const search = async (text: string) =>
      ((await api().get('/snippets/').query({ search: text }).expect(200)).body as { code: string }[]).map(
        (s) => s.code,
      );
    expect(await search('key')).to.deep.equal(['\u212aEY = 1']);
    expect(await search('if')).to.deep.equal(['\u0130f x']);
    expect(await search('SELF')).to.deep.equal(['self.x']);
    expect(await search('b+c(d)[')).to.deep.equal(['a.b+c(d)[e]']);
  });
});
