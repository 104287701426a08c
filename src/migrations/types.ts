// Column types that differ by dialect.
import { DataTypes, type Sequelize } from 'sequelize';

/** LONGTEXT on MySQL (100,000 characters of 4-byte UTF-8 exceed TEXT's 64 KiB); SQLite's TEXT has no size. */
export function longText(sequelize: Sequelize) {
  return sequelize.getDialect() === 'sqlite' ? DataTypes.TEXT : DataTypes.TEXT('long');
}
