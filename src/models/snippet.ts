// The Snippet model; its beforeSave hook stores the highlighted HTML document (spec, "What the service does" 3).
import { DataTypes, Model, type CreationOptional, type ForeignKey, type InferAttributes, type InferCreationAttributes, type NonAttribute, type Sequelize } from 'sequelize';
import { renderHighlighted } from '../highlight';
import type { User } from './user';
import { longText } from './types';

export class Snippet extends Model<InferAttributes<Snippet>, InferCreationAttributes<Snippet>> {
  declare id: CreationOptional<number>;
  declare created: CreationOptional<Date>;
  declare title: CreationOptional<string>;
  declare code: string;
  declare linenos: CreationOptional<boolean>;
  declare language: CreationOptional<string>;
  declare style: CreationOptional<string>;
  declare highlighted: CreationOptional<string>;
  declare ownerId: ForeignKey<User['id']>;
  declare owner?: NonAttribute<User>;
}

export function initSnippet(sequelize: Sequelize): void {
  Snippet.init(
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      created: { type: DataTypes.DATE(6), allowNull: false, defaultValue: DataTypes.NOW },
      title: { type: DataTypes.STRING(100), allowNull: false, defaultValue: '' },
      code: { type: longText(sequelize), allowNull: false },
      linenos: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      language: { type: DataTypes.STRING(100), allowNull: false, defaultValue: 'python' },
      style: { type: DataTypes.STRING(100), allowNull: false, defaultValue: 'friendly' },
      highlighted: { type: longText(sequelize), allowNull: false, defaultValue: '' },
    },
    {
      sequelize,
      tableName: 'snippets',
      modelName: 'Snippet',
      hooks: {
        // Derived data belongs to the model, as DRF's Snippet.save() does it; saves go through instance.save().
        async beforeSave(snippet) {
          snippet.highlighted = await renderHighlighted({
            code: snippet.code,
            language: snippet.language,
            style: snippet.style,
            title: snippet.title,
            linenos: snippet.linenos,
          });
        },
      },
    },
  );
}
