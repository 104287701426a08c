// Personal access tokens (docs/authentication.md "Personal access tokens"): many per user, each with a name, scopes and
// an expiry. The key is shown once and never stored: only its SHA-256 digest, by which a request's key is looked up.
import { DataTypes, type QueryInterface } from 'sequelize';

export async function up(qi: QueryInterface): Promise<void> {
  await qi.createTable('personal_tokens', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    user_id: {
      type: DataTypes.INTEGER,
      allowNull: false,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    name: { type: DataTypes.STRING(100), allowNull: false },
    key_digest: { type: DataTypes.STRING(64), allowNull: false, unique: true },
    // Space-separated, as OAuth 2.0 writes a scope: "read write".
    scopes: { type: DataTypes.STRING(100), allowNull: false },
    created: { type: DataTypes.DATE(6), allowNull: false },
    expires: { type: DataTypes.DATE(6), allowNull: false },
    last_used: { type: DataTypes.DATE(6), allowNull: true },
  });
  await qi.addIndex('personal_tokens', ['user_id', 'id'], { name: 'personal_tokens_user' });
}

export async function down(qi: QueryInterface): Promise<void> {
  await qi.dropTable('personal_tokens');
}
