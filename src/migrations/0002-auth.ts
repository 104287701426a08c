// Authentication state: API tokens, database sessions, OAuth 2.0 clients and their access/refresh tokens.
import { DataTypes, type QueryInterface } from 'sequelize';

const userFk = {
  type: DataTypes.INTEGER,
  allowNull: false,
  references: { model: 'users', key: 'id' },
  onDelete: 'CASCADE',
} as const;

export async function up(qi: QueryInterface): Promise<void> {
  await qi.createTable('tokens', {
    user_id: { ...userFk, primaryKey: true },
    // The key is kept to hand back on every issue (as DRF does); lookups go by its SHA-256 digest.
    key: { type: DataTypes.STRING(64), allowNull: false },
    key_digest: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    created: { type: DataTypes.DATE(6), allowNull: false },
  });
  await qi.createTable('sessions', {
    sid: { type: DataTypes.STRING(64), primaryKey: true },
    data: { type: DataTypes.TEXT, allowNull: false },
    expires: { type: DataTypes.DATE(6), allowNull: false },
  });
  await qi.addIndex('sessions', ['expires'], { name: 'sessions_expires' });
  await qi.createTable('oauth_clients', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    name: { type: DataTypes.STRING(100), allowNull: false },
    client_id: { type: DataTypes.STRING(100), allowNull: false, unique: true },
    secret_hash: { type: DataTypes.STRING(256), allowNull: false },
  });
  await qi.createTable('oauth_tokens', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    access_digest: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    refresh_digest: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    user_id: userFk,
    client_id: {
      type: DataTypes.INTEGER,
      allowNull: false,
      references: { model: 'oauth_clients', key: 'id' },
      onDelete: 'CASCADE',
    },
    scope: { type: DataTypes.STRING(200), allowNull: false },
    expires: { type: DataTypes.DATE(6), allowNull: false },
  });
}

export async function down(qi: QueryInterface): Promise<void> {
  await qi.dropTable('oauth_tokens');
  await qi.dropTable('oauth_clients');
  await qi.dropTable('sessions');
  await qi.dropTable('tokens');
}
