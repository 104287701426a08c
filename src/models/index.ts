// Binds every model to a Sequelize instance and declares their associations.
import type { Sequelize } from 'sequelize';
import { initSnippet, renderSnippet, Snippet } from './snippet';
import { initUser, User } from './user';

export function initModels(sequelize: Sequelize): void {
  initUser(sequelize);
  initSnippet(sequelize);
  User.hasMany(Snippet, { foreignKey: 'ownerId', as: 'snippets' });
  Snippet.belongsTo(User, { foreignKey: 'ownerId', as: 'owner' });
}

export { renderSnippet, Snippet, User };
