// The user a login session acts as, in a column of its row (sessions.user_id) besides its data, so that a request with
// a session cookie reads the session and its user in one statement (src/store/sessions.ts sessionData), not two: each
// is a turn on SQLite's readers, and under the mixed load of bench:drf a session-cookie read, three statements, had
// half the rate of a detail read, one (docs/scaling.md "Connections and mixed traffic"). No reference to users: a
// deleted user's session is anonymous, as before. A row saved before this migration, or by a process of the release
// before during a rolling restart, has none: its user is looked up on its own, as before.
import { DataTypes, type QueryInterface } from 'sequelize';

export async function up(qi: QueryInterface): Promise<void> {
  await qi.addColumn('sessions', 'user_id', { type: DataTypes.INTEGER, allowNull: true });
}

export async function down(qi: QueryInterface): Promise<void> {
  await qi.removeColumn('sessions', 'user_id');
}
