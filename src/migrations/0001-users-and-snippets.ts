// Users and snippets, with indexes on the owner and the creation time.
import { DataTypes, type QueryInterface } from 'sequelize';
import { longText } from './types';

export async function up(qi: QueryInterface): Promise<void> {
  await qi.createTable('users', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    username: { type: DataTypes.STRING(150), allowNull: false, unique: true },
    password: { type: DataTypes.STRING(256), allowNull: false },
    email: { type: DataTypes.STRING(254), allowNull: false, defaultValue: '' },
    is_superuser: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    date_joined: { type: DataTypes.DATE(6), allowNull: false },
  });
  await qi.createTable('snippets', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    created: { type: DataTypes.DATE(6), allowNull: false },
    title: { type: DataTypes.STRING(100), allowNull: false, defaultValue: '' },
    code: { type: longText(qi.sequelize), allowNull: false },
    linenos: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    language: { type: DataTypes.STRING(100), allowNull: false, defaultValue: 'python' },
    style: { type: DataTypes.STRING(100), allowNull: false, defaultValue: 'friendly' },
    highlighted: { type: longText(qi.sequelize), allowNull: false },
    owner_id: {
      type: DataTypes.INTEGER,
      allowNull: false,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
  });
  await qi.addIndex('snippets', ['owner_id', 'id'], { name: 'snippets_owner_id' });
  await qi.addIndex('snippets', ['created', 'id'], { name: 'snippets_created' });
}

export async function down(qi: QueryInterface): Promise<void> {
  await qi.dropTable('snippets');
  await qi.dropTable('users');
}
