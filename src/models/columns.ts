// The model attributes of a field table: each stored field's column type, nullability, default and column name.
import { DataTypes, type ModelAttributeColumnOptions } from 'sequelize';
import { fieldsOf, isStored, type FieldTable, type StoredKey, type StoredSpec } from '../schemas/table';

/** The column of an attribute, as `underscored` models name it; set explicitly so raw SQL can use the same name. */
export const columnName = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function typeOf(field: StoredSpec) {
  switch (field.kind) {
    case 'id':
      return DataTypes.INTEGER;
    case 'string':
    case 'choice':
      return DataTypes.STRING(field.maxLength);
    case 'text':
      // The column's type is the migrations' (LONGTEXT on MySQL); the model's only carries the value.
      return DataTypes.TEXT;
    case 'boolean':
      return DataTypes.BOOLEAN;
  }
}

function columnOf(name: string, field: StoredSpec): ModelAttributeColumnOptions {
  const column: ModelAttributeColumnOptions = { type: typeOf(field), field: columnName(name) };
  if (field.kind === 'id') return { ...column, autoIncrement: true, primaryKey: true };
  // A required field has no default: the key is left out rather than set to undefined.
  return field.default === undefined
    ? { ...column, allowNull: false }
    : { ...column, allowNull: false, defaultValue: field.default };
}

/** The attributes of the table's stored fields, for Model.init (the owner is an association, declared apart). */
export function attributesOf<T extends FieldTable>(table: T): Record<StoredKey<T>, ModelAttributeColumnOptions> {
  return Object.fromEntries(
    fieldsOf(table).flatMap(([name, field]) => (isStored(field) ? [[name, columnOf(name, field)]] : [])),
  ) as Record<StoredKey<T>, ModelAttributeColumnOptions>;
}
