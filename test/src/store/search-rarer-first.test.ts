// The order a search asks and checks its terms in (src/store/search.ts rarerFirst): the likely rarest first, so that a
// row stops at the first check it fails, and SQLite asks its index about that term alone before deciding how to read
// the list (src/store/sqlite/search.ts).
import { expect } from 'chai';
import { rarerFirst } from '../../../src/store/search';
import { commonTerms, sqliteSearch } from '../../../src/store/sqlite/search';
import { trigramQuery } from '../../../src/store/sqlite/long-terms';

describe('search terms, the likely rarest first', () => {
  it('orders terms by how rare their characters are in code, ignoring case', () => {
    expect(rarerFirst(['return', 'self'])).to.deep.equal(['self', 'return']);
    expect(rarerFirst(['return', 'zq_rare'])).to.deep.equal(['zq_rare', 'return']);
    expect(rarerFirst(['raise', 'ValueError'])).to.deep.equal(['ValueError', 'raise']);
  });

  it('SQLite asks its index about the likely rarest term alone, and checks it first', async () => {
    const asked: unknown[][] = [];
    // Every term is common here: each query names more matches than the list is handed as ids.
    const select = async <T extends object>(_sql: string, params: readonly unknown[]) => {
      asked.push([...params]);
      return [{ n: 2001, ids: `[${Array.from({ length: 2001 }, (_, i) => i + 1).join(',')}]` }] as unknown as T[];
    };
    const search = await sqliteSearch(
      select,
      { all: ['return', 'self'], long: ['return', 'self'], short: [] },
      commonTerms(),
    );
    expect(asked.map((p) => p[0])).to.deep.equal([trigramQuery('self')]);
    expect(search.index).to.not.equal(undefined);
    expect(search.checkParams.slice(0, 2)).to.deep.equal(['%self%', '%self%']);
  });

  it('SQLite hands the list the ids of every term when the likely rarest is rare', async () => {
    const asked: unknown[] = [];
    const select = async <T extends object>(_sql: string, params: readonly unknown[]) => {
      asked.push(params[0]);
      return [{ n: 1, ids: '[7]' }] as unknown as T[];
    };
    const search = await sqliteSearch(
      select,
      { all: ['return', 'zq_rare'], long: ['return', 'zq_rare'], short: [] },
      commonTerms(),
    );
    expect(asked).to.deep.equal([
      trigramQuery('zq_rare'),
      `(${trigramQuery('zq_rare')}) AND (${trigramQuery('return')})`,
    ]);
    expect(search.index).to.equal(undefined);
    expect(search.params).to.deep.equal(['[7]']);
  });
});
