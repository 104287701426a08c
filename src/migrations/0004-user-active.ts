// users.is_active: a deactivated user keeps their snippets and credentials but authenticates by no scheme
// (`snippets deactivateuser`, README "Command line").
import { DataTypes, type QueryInterface } from 'sequelize';

export async function up(qi: QueryInterface): Promise<void> {
  await qi.addColumn('users', 'is_active', { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true });
}

export async function down(qi: QueryInterface): Promise<void> {
  await qi.removeColumn('users', 'is_active');
}
