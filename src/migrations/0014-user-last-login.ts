// users.last_login: when the user last signed in to a session, by the password page or OpenID Connect (Django's
// AbstractBaseUser.last_login, set by its update_last_login on the user_logged_in signal: interactive logins only, so
// a script's Basic, Token or OAuth request leaves it as it was). `snippets listusers` shows it; null: never.
import { DataTypes, type QueryInterface } from 'sequelize';

export async function up(qi: QueryInterface): Promise<void> {
  await qi.addColumn('users', 'last_login', { type: DataTypes.DATE(6), allowNull: true });
}

export async function down(qi: QueryInterface): Promise<void> {
  await qi.removeColumn('users', 'last_login');
}
