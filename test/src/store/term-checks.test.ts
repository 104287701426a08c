// Which check each engine runs for a term (src/store/sqlite/long-terms.ts termCheck, src/store/mysql/term-check.ts):
// the faster check on ordinary code only up to the length where, on a text made to almost match everywhere, it would
// cost more than the plain one (docs/search.md). The answers are the same either way: the search tests say so.
import { expect } from 'chai';
import { LIKE_MAX, termCheck as sqliteCheck } from '../../../src/store/sqlite/long-terms';
import { PATTERN_MAX, caselessPattern, termCheck as mysqlCheck } from '../../../src/store/mysql/term-check';

describe('the check run for a term, by its length and characters', () => {
  it('SQLite: LIKE for an ASCII term of at most LIKE_MAX characters, instr() in lower() past it, GLOB for the rest', () => {
    expect(sqliteCheck('a'.repeat(LIKE_MAX)).where).to.contain('LIKE');
    expect(sqliteCheck('a'.repeat(LIKE_MAX + 1)).where).to.contain('instr(lower(s.code), ?)');
    expect(sqliteCheck('a'.repeat(LIKE_MAX + 1)).params).to.deep.equal([
      'a'.repeat(LIKE_MAX + 1),
      'a'.repeat(LIKE_MAX + 1),
    ]);
    expect(sqliteCheck('Жук').where).to.contain('GLOB');
  });

  it('MariaDB: a caseless pattern first for an ASCII term of at most PATTERN_MAX characters without i, none past it', () => {
    expect(caselessPattern('a'.repeat(PATTERN_MAX))).to.equal(`(?i)${'a'.repeat(PATTERN_MAX)}`);
    expect(caselessPattern('a'.repeat(PATTERN_MAX + 1))).to.equal(undefined);
    expect(caselessPattern('if')).to.equal(undefined);
    expect(caselessPattern('Жук')).to.equal(undefined);
    expect(caselessPattern('a.b(c)')).to.equal('(?i)a\\.b\\(c\\)');
    expect(mysqlCheck('a'.repeat(PATTERN_MAX + 1)).where).to.not.contain('REGEXP');
    expect(mysqlCheck('self').where).to.contain('REGEXP');
  });
});
