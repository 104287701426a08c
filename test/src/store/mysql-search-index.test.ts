// The search index of MySQL/MariaDB (src/store/mysql/search-index.ts, migration 0015) and the answers of a search on
// both engines after every kind of save: the index holds exactly the words of each snippet's text after creates,
// updates, a restore and a delete, a save rolled back leaves it as it was, the migration builds it for the snippets
// stored before it, `snippets reindex` rebuilds it, and a rare term is answered from it without reading every snippet.
// The answers are checked on SQLite too (its FTS5 index: test/src/migrations/snippet-search.test.ts); the index's own
// rows on MariaDB only.
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { down, up } from '../../../src/migrations/0015-search-index';
import { searchIndexCondition, WORDS_TABLE, type Select } from '../../../src/store/mysql/search-index';
import { tokenWidth, trigramWords } from '../../../src/store/mysql/trigram-words';
import { selectionOf } from '../../../src/store/snippets/selection';
import { writeTransaction, type Tx } from '../../../src/store/transaction';
import { cliInProcess } from '../../support/cli';
import { makeUser, resetDatabase } from '../../support/db';
import { api, basic } from '../../support/http';
import { testStore } from '../../support/runtime';

const as = { Authorization: basic('alice') };
const isMysql = () => testStore().engine.name === 'mysql';
const rows = <T extends object>(sql: string, replacements: unknown[] = []) =>
  testStore().sequelize.query<T>(sql, { type: QueryTypes.SELECT, replacements });

/** The index as it is, and as the snippets' text says it must be: one row per snippet, its words. */
async function indexState(): Promise<{ stored: Record<number, string>; expected: Record<number, string> }> {
  const [size] = await rows<{ n: number }>('SELECT @@innodb_ft_min_token_size AS n');
  const width = tokenWidth(Number(size!.n));
  const stored = await rows<{ id: number; words: string }>(`SELECT snippet_id AS id, words FROM ${WORDS_TABLE}`);
  const texts = await rows<{ id: number; t: string; c: string }>(
    'SELECT id, LOWER(title) AS t, LOWER(code) AS c FROM snippets',
  );
  return {
    stored: Object.fromEntries(stored.map((r) => [r.id, r.words.split(' ').filter(Boolean).sort().join(' ')])),
    expected: Object.fromEntries(texts.map((r) => [r.id, trigramWords([r.t, r.c], width).sort().join(' ')])),
  };
}

/** MariaDB: the index's rows are exactly those the snippets' text makes (SQLite's FTS5 is kept by its triggers). */
async function expectExact(): Promise<void> {
  if (!isMysql()) return;
  const { stored, expected } = await indexState();
  expect(stored).to.deep.equal(expected);
}

const found = async (search: string, limit = 100) =>
  ((await api().get('/snippets/').query({ search, limit }).expect(200)).body as { code: string }[]).map((s) => s.code);

const INSERT = 'INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id) VALUES ';

describe('search index, kept with every save (both engines)', () => {
  let ownerId: number;
  beforeEach(async () => {
    await resetDatabase();
    ownerId = (await makeUser('alice')).id;
  });

  const create = async (code: string, title = '') =>
    (await api().post('/snippets/').set(as).send({ code, title }).expect(201)).body as { id: number };

  it('is exact after creates, updates, a restore and a delete through the API', async () => {
    const a = await create('def Retry_Backoff(): pass', 'Networking');
    const b = await create('naïve CAFÉ 😀😀😀', 'Ünïcode');
    await expectExact();
    expect(await found('retry_backoff')).to.deep.equal(['def Retry_Backoff(): pass']);
    expect(await found('NETWORK')).to.deep.equal(['def Retry_Backoff(): pass']);
    await api().put(`/snippets/${a.id}/`).set(as).send({ code: 'exponential jitter', title: 'Networking' }).expect(200);
    await api().put(`/snippets/${b.id}/`).set(as).send({ code: 'naïve CAFÉ 😀😀😀', title: 'renamed' }).expect(200);
    await api()
      .put(`/snippets/${b.id}/`)
      .set(as)
      .send({ code: 'naïve CAFÉ 😀😀😀', title: 'renamed', language: 'text' })
      .expect(200); // the text unchanged
    await expectExact();
    expect(await found('retry_backoff')).to.deep.equal([]);
    expect(await found('JITTER')).to.deep.equal(['exponential jitter']);
    expect(await found('café')).to.deep.equal(['naïve CAFÉ 😀😀😀']);
    expect(await found('renamed')).to.deep.equal(['naïve CAFÉ 😀😀😀']);
    expect(await found('ünïcode')).to.deep.equal([]);
    await api().post(`/snippets/${a.id}/revisions/1/restore/`).set(as).expect(200);
    await expectExact();
    expect(await found('retry_backoff')).to.deep.equal(['def Retry_Backoff(): pass']);
    expect(await found('jitter')).to.deep.equal([]);
    await api().delete(`/snippets/${b.id}/`).set(as).expect(204);
    await expectExact();
    expect(await found('café')).to.deep.equal([]);
  });

  it('costs an update that leaves the title and code as they are nothing: no words worked out, no index written', async () => {
    const a = await create('def zq_style(): pass', 'Styled');
    // Counted where writes.ts asks the engine for them (SQLite has neither: counting stand-ins there); the transactions
    // run in this thread (their portable work dropped), where the engine is their indexer, not on the writer thread.
    const engine = testStore().engine;
    const { searchEntry, indexSnippet, transaction } = engine;
    const calls: string[] = [];
    engine.transaction = <T>(work: (tx: Tx) => Promise<T>) => transaction.call(engine, work) as Promise<T>;
    engine.searchEntry = (title, code) => {
      calls.push('searchEntry');
      return searchEntry ? searchEntry.call(engine, title, code) : Promise.resolve('');
    };
    engine.indexSnippet = (tx, id, entry) => {
      calls.push('indexSnippet');
      return indexSnippet ? indexSnippet.call(engine, tx, id, entry) : Promise.resolve();
    };
    try {
      const put = (fields: object) => api().put(`/snippets/${a.id}/`).set(as).send(fields).expect(200);
      await put({ code: 'def zq_style(): pass', title: 'Styled', style: 'monokai', linenos: true });
      await put({ code: 'def zq_style(): pass', title: 'Styled', language: 'text' });
      expect(calls).to.deep.equal([]);
      await put({ code: 'def zq_style(): pass', title: 'Restyled' });
      expect(calls).to.deep.equal(['searchEntry', 'indexSnippet']);
    } finally {
      Object.assign(engine, { searchEntry, indexSnippet, transaction });
    }
    await expectExact();
    expect(await found('restyled')).to.deep.equal(['def zq_style(): pass']);
  });

  it('leaves no trace of a save rolled back (an update past the quota)', async () => {
    const a = await create('before the refused save');
    const saved = testStore().quotaBytes;
    testStore().quotaBytes = 100;
    try {
      await api()
        .put(`/snippets/${a.id}/`)
        .set(as)
        .send({ code: 'zq_refused '.repeat(20) })
        .expect(413);
    } finally {
      testStore().quotaBytes = saved;
    }
    await expectExact();
    expect(await found('zq_refused')).to.deep.equal([]);
    expect(await found('refused save')).to.deep.equal(['before the refused save']);
  });

  it('is written in the transaction of the save: rolled back with it', async () => {
    const outcome = await writeTransaction(testStore(), async (tx) => {
      const id = await tx.insert(`${INSERT}(?, '', 'zq_ghost', 0, 'python', 'friendly', '', ?)`, [new Date(), ownerId]);
      const entry = await testStore().engine.searchEntry?.('', 'zq_ghost');
      if (entry !== undefined) await testStore().engine.indexSnippet?.(tx, id, entry);
      if (isMysql()) expect(await rows(`SELECT 1 FROM ${WORDS_TABLE}`)).to.deep.equal([]); // not visible outside it
      throw new Error('rolled back');
    }).catch((err: Error) => err.message);
    expect(outcome).to.equal('rolled back');
    if (isMysql()) expect(await rows(`SELECT 1 FROM ${WORDS_TABLE}`)).to.deep.equal([]);
    expect(await found('zq_ghost')).to.deep.equal([]);
  });

  it('finds the snippets stored before migration 0015 after it, which builds the index in batches and resumes after a cut', async () => {
    const qi = testStore().sequelize.getQueryInterface();
    await down(qi);
    const values = Array.from(
      { length: 1203 },
      (_, i) =>
        `('2026-01-01', 't${i}', 'code ${i}${i === 1100 ? ' zq_late' : ''}', 0, 'python', 'friendly', '', ${ownerId})`,
    );
    await testStore().sequelize.query(`${INSERT}${values.join(', ')}`);
    const lines: string[] = [];
    // Whether the words' FULLTEXT key was there as the rows began: asked at the first line, before the first batch.
    let keyWhileRows: Promise<boolean> | undefined;
    await up(qi, (line) => {
      keyWhileRows ??= hasWordsKey();
      lines.push(line);
    });
    await expectExact();
    expect(await found('zq_late')).to.deep.equal(['code 1100 zq_late']);
    if (!isMysql()) return;
    // The rows first, then the key over all of them in one pass (docs/search.md "The index built after its rows").
    expect(await keyWhileRows).to.equal(false);
    expect(await hasWordsKey()).to.equal(true);
    expect(lines).to.deep.equal([
      '0015-search-index: indexing 1203 snippets for search, 500 at a time',
      '0015-search-index: 1203 snippets indexed',
      "0015-search-index: building the index's FULLTEXT key over the words of 1203 snippets",
      '0015-search-index: the FULLTEXT key is built',
    ]);
    // Cut short: the rows of the last batches lost; the next run indexes only those.
    const cut = async () => {
      await testStore().sequelize.query(
        `DELETE FROM ${WORDS_TABLE} WHERE snippet_id > (SELECT MIN(id) + 999 FROM snippets)`,
      );
      lines.length = 0;
      await up(qi, (line) => void lines.push(line));
      expect(lines[0]).to.equal('0015-search-index: indexing 203 snippets for search, 500 at a time');
      await expectExact();
      expect(await found('zq_late')).to.deep.equal(['code 1100 zq_late']);
    };
    await cut();
    expect(lines.at(-1)).to.equal('0015-search-index: 203 snippets indexed'); // the key was there: not built again
    // Cut between the rows and the key: the next run builds the key.
    await testStore().sequelize.query(`ALTER TABLE ${WORDS_TABLE} DROP INDEX ${WORDS_TABLE}_words`);
    await cut();
    expect(lines.at(-1)).to.equal('0015-search-index: the FULLTEXT key is built');
    expect(await hasWordsKey()).to.equal(true);
    // Cut after the last batch, before the key: no row left to write, the key's build still says so.
    await testStore().sequelize.query(`ALTER TABLE ${WORDS_TABLE} DROP INDEX ${WORDS_TABLE}_words`);
    lines.length = 0;
    await up(qi, (line) => void lines.push(line));
    expect(lines).to.deep.equal([
      "0015-search-index: building the index's FULLTEXT key over the words of 1203 snippets",
      '0015-search-index: the FULLTEXT key is built',
    ]);
    expect(await hasWordsKey()).to.equal(true);
    // Built with stopwords off: a word may spell one of InnoDB's (`the`).
    const [first] = await rows<{ id: number }>(`SELECT MIN(snippet_id) AS id FROM ${WORDS_TABLE}`);
    await testStore().sequelize.query(`UPDATE ${WORDS_TABLE} SET words = 'the' WHERE snippet_id = ?`, {
      replacements: [first!.id],
    });
    const matched = await rows<{ id: number }>(
      `SELECT snippet_id AS id FROM ${WORDS_TABLE} WHERE MATCH (words) AGAINST ('+the' IN BOOLEAN MODE)`,
    );
    expect(matched.map((r) => r.id)).to.deep.equal([first!.id]);
  });
});

/** Whether the words' table has its FULLTEXT key now. */
async function hasWordsKey(): Promise<boolean> {
  const keys = await rows<{ type: string }>(
    'SELECT index_type AS type FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = ? AND index_name = ?',
    [WORDS_TABLE, `${WORDS_TABLE}_words`],
  );
  return keys.map((k) => k.type).join() === 'FULLTEXT';
}

describe('MySQL/MariaDB search index', function () {
  let ownerId: number;
  before(function () {
    if (!isMysql()) this.skip();
  });
  beforeEach(async () => {
    await resetDatabase();
    ownerId = (await makeUser('alice')).id;
  });

  it('holds no word of common characters only: `return self` has none, `zq_rare` its rare ones', async () => {
    const [size] = await rows<{ n: number }>('SELECT @@innodb_ft_min_token_size AS n');
    const width = tokenWidth(Number(size!.n));
    expect(trigramWords(['return self'], width)).to.deep.equal([]);
    expect(trigramWords(['zq_rare'], width)).to.have.length(2); // zq_, q_r; not `_ra`, `rar`, `are`
  });

  it('still finds every snippet after InnoDB rebuilds the table (OPTIMIZE TABLE)', async () => {
    const values = Array.from(
      { length: 300 },
      (_, i) => `('2026-01-01', '', 'text ${i} Zq_Case_${i % 100} qxJ', 0, 'python', 'friendly', '', ${ownerId})`,
    );
    await testStore().sequelize.query(`${INSERT}${values.join(', ')}`);
    await up(testStore().sequelize.getQueryInterface(), () => {});
    await testStore().sequelize.query(`OPTIMIZE TABLE ${WORDS_TABLE}`);
    for (const term of ['zq_case_7', 'ZQ_CASE_42', 'qxj']) {
      const codes = (await found(term, 1000)).sort();
      const expected = Array.from({ length: 300 }, (_, i) => `text ${i} Zq_Case_${i % 100} qxJ`)
        .filter((c) => c.toLowerCase().includes(term.toLowerCase()))
        .sort();
      expect(codes).to.deep.equal(expected);
    }
  });

  it('`snippets reindex` rebuilds it, with a progress bar', async () => {
    await api().post('/snippets/').set(as).send({ code: 'zq_one' }).expect(201);
    await api().post('/snippets/').set(as).send({ code: 'zq_two' }).expect(201);
    await testStore().sequelize.query(`UPDATE ${WORDS_TABLE} SET words = ''`);
    expect(await found('zq_one')).to.deep.equal([]);
    const res = await cliInProcess({ ...process.env, SECRET_KEY: 'x'.repeat(40) }, 'reindex', '--batch-size', '1');
    expect(res.stdout).to.equal('Indexed 2 snippets for search.\n');
    expect(res.stderr).to.match(/reindex \[.*\] 2\/2 snippets/);
    await expectExact();
    expect(await found('zq_one')).to.deep.equal(['zq_one']);
  });

  it('answers a rare term from the index: the page reads its candidates, not every snippet', async () => {
    const values = Array.from(
      { length: 3000 },
      (_, i) =>
        `('2026-01-01', '', 'common code ${i}${i % 1000 === 7 ? ' zq_rare' : ''}', 0, 'python', 'friendly', '', ${ownerId})`,
    );
    await testStore().sequelize.query(`${INSERT}${values.join(', ')}`);
    await up(testStore().sequelize.getQueryInterface(), () => {});
    expect(await found('zq_rare')).to.have.length(3);
    const selection = await selectionOf(testStore(), { search: 'zq_rare' });
    const page = (where: string[]) =>
      `SELECT s.id FROM snippets s STRAIGHT_JOIN users u ON u.id = s.owner_id WHERE ${[...where, ...selection.scan!.check].join(' AND ')} ORDER BY s.created, s.id LIMIT 101`;
    expect(selection.where).to.have.length(1);
    expect(await rowsRead(page(selection.where), [...selection.params, ...selection.scan!.params])).to.be.below(100);
    // Without the index's condition the same page reads every snippet: the counter measures what it should.
    expect(await rowsRead(page([]), selection.scan!.params)).to.be.above(3000);
  });

  it("reads a rare term's candidates from the index once a request, not in each of the page's statements", async function () {
    if (!isMysql()) this.skip();
    const values = Array.from(
      { length: 300 },
      (_, i) =>
        `('2026-01-01', '', 'common code ${i}${i % 100 === 7 ? ' zq_rare' : ''}', 0, 'python', 'friendly', '', ${ownerId})`,
    );
    await testStore().sequelize.query(`${INSERT}${values.join(', ')}`);
    await up(testStore().sequelize.getQueryInterface(), () => {});
    const { engine } = testStore();
    const statements: string[] = [];
    const select = engine.select.bind(engine);
    engine.select = (sql, ...rest) => (statements.push(sql), select(sql, ...rest));
    try {
      expect(await found('ZQ_rare')).to.have.length(3);
    } finally {
      engine.select = select;
    }
    // The page's window, sizes and rows: three statements, one reading the words' lists.
    expect(statements.filter((sql) => sql.includes('MATCH'))).to.have.length(1);
    // An ASCII term is lowered without asking the server.
    expect(statements.filter((sql) => sql.startsWith('SELECT LOWER('))).to.deep.equal([]);
  });

  it('names the candidates by the index itself past `few` of them, with the same snippets', async function () {
    if (!isMysql()) this.skip();
    const values = Array.from(
      { length: 30 },
      (_, i) =>
        `('2026-01-01', '', 'code ${i}${i % 10 === 7 ? ' zq_rare' : ''}', 0, 'python', 'friendly', '', ${ownerId})`,
    );
    await testStore().sequelize.query(`${INSERT}${values.join(', ')}`);
    await up(testStore().sequelize.getQueryInterface(), () => {});
    const { sequelize, engine } = testStore();
    const select: Select = (sql, params) => engine.select(sql, params, 'search', false);
    const idsOf = async (few: number) => {
      const condition = (await searchIndexCondition(sequelize, async (t) => t, ['zq_rare'], select, few))!;
      const ids = await rows<{ id: number }>(
        `SELECT s.id FROM snippets s WHERE ${condition.where} ORDER BY s.id`,
        condition.params,
      );
      return { where: condition.where, ids: ids.map((r) => r.id) };
    };
    const listed = await idsOf(3);
    const matched = await idsOf(2);
    expect(listed.where).to.include('JSON_TABLE').and.not.include('MATCH');
    expect(matched.where).to.include('MATCH');
    expect(listed.ids).to.have.length(3).and.deep.equal(matched.ids);
  });
});

describe('snippets reindex on SQLite', function () {
  before(function () {
    if (isMysql()) this.skip();
  });

  it('has nothing to rebuild: FTS5 is kept by triggers', async () => {
    const env = { ...process.env, DATABASE_URL: 'sqlite::memory:', SECRET_KEY: 'x'.repeat(40) };
    const res = await cliInProcess(env, 'reindex');
    expect(res.code).to.equal(0);
    expect(res.stdout).to.equal('This database keeps its search index itself: nothing to rebuild.\n');
  });
});

/** The rows the server read for one statement (its Handler_read_* counters), on a connection of its own. */
async function rowsRead(sql: string, params: unknown[]): Promise<number> {
  const { sequelize } = testStore();
  return sequelize.transaction(async (transaction) => {
    const counters = async () =>
      (
        await sequelize.query<{ Variable_name: string; Value: string }>("SHOW SESSION STATUS LIKE 'Handler_read%'", {
          type: QueryTypes.SELECT,
          transaction,
        })
      ).reduce((sum, r) => sum + Number(r.Value), 0);
    const before = await counters();
    await sequelize.query(sql, { replacements: params, type: QueryTypes.SELECT, transaction });
    return (await counters()) - before;
  });
}
