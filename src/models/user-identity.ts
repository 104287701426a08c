// The UserIdentity model: an OpenID Connect identity (issuer and subject) a user signs in with (migration 0012).
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export class UserIdentity extends Model<InferAttributes<UserIdentity>, InferCreationAttributes<UserIdentity>> {
  declare id: CreationOptional<number>;
  declare issuer: string;
  declare subject: string;
  declare userId: number;
  declare created: CreationOptional<Date>;
}

export function defineUserIdentity(sequelize: Sequelize): typeof UserIdentity {
  const Bound = class extends UserIdentity {};
  Bound.init(
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      issuer: { type: DataTypes.STRING(255), allowNull: false },
      subject: { type: DataTypes.STRING(255), allowNull: false },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      created: { type: DataTypes.DATE(6), allowNull: false, defaultValue: DataTypes.NOW },
    },
    {
      sequelize,
      tableName: 'user_identities',
      modelName: 'UserIdentity',
      indexes: [{ name: 'user_identities_issuer_subject', unique: true, fields: ['issuer', 'subject'] }],
    },
  );
  return Bound;
}
