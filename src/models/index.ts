// The models of one database: classes of its own, bound to its Sequelize instance, with their associations.
import type { Sequelize } from 'sequelize';
import type { Highlighter } from '../highlight';
import { defineSnippet, Snippet } from './snippet';
import { defineUser, User } from './user';

export interface Models {
  Snippet: typeof Snippet;
  User: typeof User;
}

/** Subclasses per database: two stores in one process never share a class bound to the other's connection. */
export function defineModels(sequelize: Sequelize, highlighter: Highlighter): Models {
  const models = { User: defineUser(sequelize), Snippet: defineSnippet(sequelize, highlighter) };
  models.User.hasMany(models.Snippet, { foreignKey: 'ownerId', as: 'snippets' });
  models.Snippet.belongsTo(models.User, { foreignKey: 'ownerId', as: 'owner' });
  return models;
}

export { Snippet, User };
