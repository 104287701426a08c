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
import { longText } from './types';

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
}

/** The stored fields `highlighted` is rendered from. */
export type RenderedFields = Pick<Snippet, 'code' | 'language' | 'style' | 'title' | 'linenos'>;

/**
 * `highlighted` for a snippet's fields, by the model's own beforeSave hook: the writes that store a revision with the
 * row in one transaction of their own (src/snippets/writes.ts) render through the same hook as every save.
 */
export async function renderedByHook(model: typeof Snippet, fields: RenderedFields): Promise<string> {
  const snippet = model.build({
    code: fields.code,
    language: fields.language,
    style: fields.style,
    title: fields.title,
    linenos: fields.linenos,
  });
  // Hooks.runHooks is Sequelize's own way of running a model's hooks (lib/hooks.js); its typings leave it out.
  await (
    model as unknown as { runHooks(name: 'beforeSave', instance: Snippet, options: object): Promise<void> }
  ).runHooks('beforeSave', snippet, {});
  return snippet.highlighted;
}

/** A Snippet class bound to `sequelize`, whose hook renders with `highlighter`. */
export function defineSnippet(sequelize: Sequelize, highlighter: Highlighter): typeof Snippet {
  const Bound = class extends Snippet {};
  Bound.init(
    {
      ...attributesOf(SNIPPET_TABLE, sequelize),
      created: { type: DataTypes.DATE(6), allowNull: false, defaultValue: DataTypes.NOW },
      highlighted: { type: longText(sequelize), allowNull: false, defaultValue: '' },
    },
    {
      sequelize,
      tableName: 'snippets',
      modelName: 'Snippet',
      hooks: {
        // Derived data belongs to the model, as DRF's Snippet.save() does it; saves go through instance.save().
        async beforeSave(snippet) {
          snippet.highlighted = await highlighter.render({
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
  return Bound;
}
