// The User model: a Django-compatible account (username, pbkdf2_sha256 password).
import {
  DataTypes,
  Model,
  type InferAttributes,
  type InferCreationAttributes,
  type CreationOptional,
  type Sequelize,
} from 'sequelize';

export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: CreationOptional<number>;
  declare username: string;
  declare password: string;
  declare email: CreationOptional<string>;
  declare is_superuser: CreationOptional<boolean>;
  declare is_active: CreationOptional<boolean>;
  declare date_joined: CreationOptional<Date>;
  declare last_login: CreationOptional<Date | null>;
}

export function defineUser(sequelize: Sequelize): typeof User {
  const Bound = class extends User {};
  Bound.init(
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      username: { type: DataTypes.STRING(150), allowNull: false, unique: true },
      password: { type: DataTypes.STRING(256), allowNull: false },
      email: { type: DataTypes.STRING(254), allowNull: false, defaultValue: '' },
      is_superuser: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      is_active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      date_joined: { type: DataTypes.DATE(6), allowNull: false, defaultValue: DataTypes.NOW },
      last_login: { type: DataTypes.DATE(6), allowNull: true },
    },
    { sequelize, tableName: 'users', modelName: 'User' },
  );
  return Bound;
}
