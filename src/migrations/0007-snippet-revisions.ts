// snippet_revisions: every save of a snippet's fields, numbered from 1 per snippet, and snippets.revision, the number of
// the latest (the version a conditional write compares, docs/api.md "History"). Each existing snippet gets revision 1,
// its current fields, saved at its creation time (the time of its last save is not recorded).
import { DataTypes, type QueryInterface } from 'sequelize';
import { longText } from './types';

export async function up(qi: QueryInterface): Promise<void> {
  await qi.addColumn('snippets', 'revision', { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 });
  await qi.createTable('snippet_revisions', {
    snippet_id: {
      type: DataTypes.INTEGER,
      allowNull: false,
      primaryKey: true,
      references: { model: 'snippets', key: 'id' },
      onDelete: 'CASCADE',
    },
    n: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
    saved: { type: DataTypes.DATE(6), allowNull: false },
    title: { type: DataTypes.STRING(100), allowNull: false },
    code: { type: longText(qi.sequelize), allowNull: false },
    linenos: { type: DataTypes.BOOLEAN, allowNull: false },
    language: { type: DataTypes.STRING(100), allowNull: false },
    style: { type: DataTypes.STRING(100), allowNull: false },
  });
  await qi.sequelize.query(
    'INSERT INTO snippet_revisions (snippet_id, n, saved, title, code, linenos, language, style) SELECT id, 1, created, title, code, linenos, language, style FROM snippets',
  );
}

export async function down(qi: QueryInterface): Promise<void> {
  await qi.dropTable('snippet_revisions');
  await qi.removeColumn('snippets', 'revision');
}
