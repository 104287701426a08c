// The models of one database: classes of its own, bound to its Sequelize instance, with their associations.
import type { Sequelize } from 'sequelize';
import type { Highlighter } from '../highlight';
import { definePersonalToken, PersonalToken } from './personal-token';
import { defineSnippet, Snippet } from './snippet';
import { defineUser, User } from './user';
import { defineUserIdentity, UserIdentity } from './user-identity';

export interface Models {
  Snippet: typeof Snippet;
  User: typeof User;
  UserIdentity: typeof UserIdentity;
  PersonalToken: typeof PersonalToken;
}

/** Subclasses per database: two stores in one process never share a class bound to the other's connection. */
export function defineModels(sequelize: Sequelize, highlighter: Highlighter): Models {
  const models = {
    User: defineUser(sequelize),
    Snippet: defineSnippet(sequelize, highlighter),
    UserIdentity: defineUserIdentity(sequelize),
    PersonalToken: definePersonalToken(sequelize),
  };
  models.User.hasMany(models.Snippet, { foreignKey: 'ownerId', as: 'snippets' });
  models.Snippet.belongsTo(models.User, { foreignKey: 'ownerId', as: 'owner' });
  models.User.hasMany(models.UserIdentity, { foreignKey: 'userId', as: 'identities' });
  return models;
}

export { PersonalToken, Snippet, User, UserIdentity };
