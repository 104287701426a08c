// user_identities: the OpenID Connect identities a user signs in with (docs/authentication.md "Single sign-on"). An
// identity is its provider's issuer and the subject (`sub`) the provider gives the person there, unique together
// (OpenID Connect Core 1.0 section 5.7: only that pair identifies an end-user; a username or e-mail may change hands).
import { DataTypes, type QueryInterface } from 'sequelize';

export async function up(qi: QueryInterface): Promise<void> {
  await qi.createTable('user_identities', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    // 255 characters each: `sub` is at most 255 ASCII characters (Core 1.0 section 2), and the pair stays within
    // InnoDB's 3072-byte key in utf8mb4.
    issuer: { type: DataTypes.STRING(255), allowNull: false },
    subject: { type: DataTypes.STRING(255), allowNull: false },
    user_id: {
      type: DataTypes.INTEGER,
      allowNull: false,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    created: { type: DataTypes.DATE(6), allowNull: false },
  });
  await qi.addIndex('user_identities', ['issuer', 'subject'], { name: 'user_identities_issuer_subject', unique: true });
  await qi.addIndex('user_identities', ['user_id'], { name: 'user_identities_user' });
}

export async function down(qi: QueryInterface): Promise<void> {
  await qi.dropTable('user_identities');
}
