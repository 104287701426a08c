// The Snippet model, its attributes derived from the field table; its beforeSave hook stores the highlighted HTML document (spec, "What the service does" 3).
import {
  DataTypes,
  Model,
  type CreationOptional,
  type ForeignKey,
  type InferAttributes,
  type InferCreationAttributes,
  type NonAttribute,
  type Sequelize,
} from 'sequelize';
import type { Highlighter } from '../highlight';
import { SNIPPET_TABLE, type SnippetTable } from '../schemas/snippet-table';
import type { FieldValue, StoredKey } from '../schemas/table';
import type { User } from './user';
import { attributesOf } from './columns';

/** The table's stored fields as attributes; those not required (they have a default, or are the id) are optional on create. */
type TableAttributes = {
  [K in StoredKey<SnippetTable>]: SnippetTable[K] extends { required: true }
    ? FieldValue<SnippetTable[K]>
    : CreationOptional<FieldValue<SnippetTable[K]>>;
};

// The interface declares the table's attributes on the class (as `declare` lines would), without runtime fields.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface Snippet extends TableAttributes {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Snippet extends Model<InferAttributes<Snippet>, InferCreationAttributes<Snippet>> {
  /** Kept on the record, never in a representation (DESIGN §3). */
  declare created: CreationOptional<Date>;
  declare highlighted: CreationOptional<string>;
  declare ownerId: ForeignKey<User['id']>;
  declare owner?: NonAttribute<User>;

  /**
   * `highlighted` for a snippet's fields: what the beforeSave hook stores on every save, and what the writes that store
   * a revision with the row in one transaction of their own store (src/store/snippets/writes.ts). A bound class renders with
   * its database's highlighter (defineSnippet).
   */
  static render(_fields: RenderedFields): Promise<string> {
    return Promise.reject(new Error('Snippet.render(): use the class bound to a database (defineSnippet)'));
  }
}

/** The stored fields `highlighted` is rendered from. */
export type RenderedFields = Pick<Snippet, 'code' | 'language' | 'style' | 'title' | 'linenos'>;

/** A Snippet class bound to `sequelize`, whose hook renders with `highlighter`. */
export function defineSnippet(sequelize: Sequelize, highlighter: Highlighter): typeof Snippet {
  const Bound = class extends Snippet {
    static override render(fields: RenderedFields): Promise<string> {
      const { code, language, style, title, linenos } = fields;
      return highlighter.render({ code, language, style, title, linenos });
    }
  };
  Bound.init(
    {
      ...attributesOf(SNIPPET_TABLE),
      created: { type: DataTypes.DATE(6), allowNull: false, defaultValue: DataTypes.NOW },
      highlighted: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
    },
    {
      sequelize,
      tableName: 'snippets',
      modelName: 'Snippet',
      hooks: {
        // Derived data belongs to the model, as DRF's Snippet.save() does it; saves go through instance.save().
        async beforeSave(snippet) {
          snippet.highlighted = await Bound.render(snippet);
        },
      },
    },
  );
  return Bound;
}
