// The PersonalToken model: a user's named, scoped, expiring access token, stored as the digest of its key
// (src/migrations/0011-personal-tokens.ts).
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export class PersonalToken extends Model<InferAttributes<PersonalToken>, InferCreationAttributes<PersonalToken>> {
  declare id: CreationOptional<number>;
  declare user_id: number;
  declare name: string;
  declare key_digest: string;
  /** Space-separated scopes: "read", "write", "read write". */
  declare scopes: string;
  declare created: Date;
  declare expires: Date;
  declare last_used: CreationOptional<Date | null>;
}

export function definePersonalToken(sequelize: Sequelize): typeof PersonalToken {
  const Bound = class extends PersonalToken {};
  Bound.init(
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      user_id: { type: DataTypes.INTEGER, allowNull: false },
      name: { type: DataTypes.STRING(100), allowNull: false },
      key_digest: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      scopes: { type: DataTypes.STRING(100), allowNull: false },
      created: { type: DataTypes.DATE(6), allowNull: false },
      expires: { type: DataTypes.DATE(6), allowNull: false },
      last_used: { type: DataTypes.DATE(6), allowNull: true },
    },
    { sequelize, tableName: 'personal_tokens', modelName: 'PersonalToken' },
  );
  return Bound;
}
