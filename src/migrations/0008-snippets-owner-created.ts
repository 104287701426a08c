// An owner's snippets in list order: the index (owner_id, created, id) serves `?owner=` pages and a user's record
// without sorting the owner's snippets for each page (docs/benchmarks.md, "Search"). It takes the place of
// (owner_id, id), which the owner's foreign key used: the new one starts with owner_id too.
import type { QueryInterface } from 'sequelize';

export async function up(qi: QueryInterface): Promise<void> {
  await qi.addIndex('snippets', ['owner_id', 'created', 'id'], { name: 'snippets_owner_created' });
  await qi.removeIndex('snippets', 'snippets_owner_id');
}

export async function down(qi: QueryInterface): Promise<void> {
  await qi.addIndex('snippets', ['owner_id', 'id'], { name: 'snippets_owner_id' });
  await qi.removeIndex('snippets', 'snippets_owner_created');
}
