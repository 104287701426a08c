// What the tests of SQLite's search index migrations (test/src/migrations/search-*.test.ts) share: the searches'
// answers, the index's definition, an existing database to rebuild, a save that rolls back.
import { expect } from 'chai';
import { api } from './http';
import { testStore } from './runtime';

/** The codes `GET /snippets/?search=` answers, in list order. */
export const found = async (search: string) =>
  ((await api().get('/snippets/').query({ search }).expect(200)).body as { code: string }[]).map((s) => s.code);

/** The index's CREATE VIRTUAL TABLE statement. */
export const tableSql = async () => {
  const [rows] = await testStore().sequelize.query("SELECT sql FROM sqlite_master WHERE name = 'snippet_search'");
  return (rows as { sql: string }[])[0]?.sql ?? '';
};

/** An existing database's snippets: 25 of `ownerId`'s, five of them holding `needle` (NEEDLES). */
export async function seedNeedles(ownerId: number): Promise<void> {
  await testStore().models.Snippet.bulkCreate(
    Array.from({ length: 25 }, (_, i) => ({ code: `code ${i} ${i % 5 === 2 ? 'needle' : 'hay'}`, ownerId })),
  );
}
export const NEEDLES = [2, 7, 12, 17, 22].map((i) => `code ${i} needle`);

/** The tables a rebuild leaves while unfinished: none once it is done. */
export async function rebuildLeftovers(): Promise<unknown[]> {
  const [rows] = await testStore().sequelize.query(
    "SELECT name FROM sqlite_master WHERE name LIKE 'snippet_search_new%' OR name = 'snippet_search_build'",
  );
  return rows;
}

/** A transaction that changes snippet `id`'s code to `haystack` and creates another, then rolls back. */
export async function rolledBackSave(id: number, ownerId: number): Promise<void> {
  const { sequelize, models } = testStore();
  await sequelize
    .transaction(async (transaction) => {
      await models.Snippet.update({ code: 'haystack' }, { where: { id }, transaction });
      await models.Snippet.create({ code: 'haystack too', ownerId }, { transaction });
      throw new Error('rolled back');
    })
    .catch((err: Error) => expect(err.message).to.equal('rolled back'));
}
