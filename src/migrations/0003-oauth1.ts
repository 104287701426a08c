// OAuth 1.0a: consumers, their tokens (one per user and grant, made by the CLI), and the nonces seen within the timestamp window.
import { DataTypes, type QueryInterface } from 'sequelize';

const userFk = {
  type: DataTypes.INTEGER,
  allowNull: false,
  references: { model: 'users', key: 'id' },
  onDelete: 'CASCADE',
} as const;

export async function up(qi: QueryInterface): Promise<void> {
  // Secrets are stored as they are, not hashed: HMAC-SHA1 verification needs the secret itself as the key (as
  // django-oauth-plus and oauthlib's providers store it). Encrypting them with SECRET_KEY would only move the
  // key onto the same server and make a SECRET_KEY rotation break every client; keep the database private instead.
  await qi.createTable('oauth1_consumers', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    name: { type: DataTypes.STRING(100), allowNull: false },
    consumer_key: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    consumer_secret: { type: DataTypes.STRING(128), allowNull: false },
  });
  await qi.createTable('oauth1_tokens', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    consumer_id: {
      type: DataTypes.INTEGER,
      allowNull: false,
      references: { model: 'oauth1_consumers', key: 'id' },
      onDelete: 'CASCADE',
    },
    user_id: userFk,
    token_key: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    token_secret: { type: DataTypes.STRING(128), allowNull: false },
    created: { type: DataTypes.DATE(6), allowNull: false },
  });
  // A replay is an insert that violates the unique key; rows older than the timestamp window are pruned.
  await qi.createTable('oauth1_nonces', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    consumer_key: { type: DataTypes.STRING(64), allowNull: false },
    token: { type: DataTypes.STRING(64), allowNull: false },
    timestamp: { type: DataTypes.BIGINT, allowNull: false },
    nonce: { type: DataTypes.STRING(64), allowNull: false },
  });
  await qi.addIndex('oauth1_nonces', ['consumer_key', 'nonce', 'timestamp'], {
    name: 'oauth1_nonces_unique',
    unique: true,
  });
  await qi.addIndex('oauth1_nonces', ['timestamp'], { name: 'oauth1_nonces_timestamp' });
}

export async function down(qi: QueryInterface): Promise<void> {
  await qi.dropTable('oauth1_nonces');
  await qi.dropTable('oauth1_tokens');
  await qi.dropTable('oauth1_consumers');
}
