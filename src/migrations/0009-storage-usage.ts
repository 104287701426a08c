// Storage per user (docs/operations.md "Storage per user"): snippet_revisions.bytes, the UTF-8 bytes of a revision's
// title and code, and users.stored_bytes, the sum over every revision the user's snippets keep. The counter is kept in
// the transaction of each save and delete (src/snippets/writes.ts), so checking a quota reads one row, where a SUM over
// the user's revisions grows with them. Existing rows are counted here.
import { DataTypes, type QueryInterface } from 'sequelize';

export async function up(qi: QueryInterface): Promise<void> {
  await qi.addColumn('snippet_revisions', 'bytes', { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 });
  await qi.addColumn('users', 'stored_bytes', { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 });
  // LENGTH counts bytes on MySQL/MariaDB; SQLite counts characters in text and bytes in a blob.
  const bytes = (column: string) =>
    qi.sequelize.getDialect() === 'sqlite' ? `LENGTH(CAST(${column} AS BLOB))` : `LENGTH(${column})`;
  await qi.sequelize.query(`UPDATE snippet_revisions SET bytes = ${bytes('title')} + ${bytes('code')}`);
  await qi.sequelize.query(
    'UPDATE users SET stored_bytes = (SELECT COALESCE(SUM(r.bytes), 0) FROM snippet_revisions r JOIN snippets s ON s.id = r.snippet_id WHERE s.owner_id = users.id)',
  );
}

export async function down(qi: QueryInterface): Promise<void> {
  // DROP COLUMN in place: Sequelize's removeColumn on SQLite copies the table and drops the old one, which the foreign
  // keys' ON DELETE CASCADE would follow into the snippets.
  await qi.sequelize.query('ALTER TABLE users DROP COLUMN stored_bytes');
  await qi.sequelize.query('ALTER TABLE snippet_revisions DROP COLUMN bytes');
}
