// A user's stored bytes (0009's users.stored_bytes) in a table of its own, user_storage, so that a create can count
// them last in its transaction. On MySQL/MariaDB the INSERT of a snippet share-locks its owner's users row (the foreign
// key's check): a create that then updated that row would deadlock with another create of the same user, so the
// count came first, and the row stayed locked for the rest of the transaction: five round trips, each waiting for the
// event loop under load. Sixteen writers of one user beside sixteen readers made 39 creates a second, p99 571 ms
// (`npm run bench:mixed` on MariaDB, 2026-11-26). A row of user_storage is locked by nothing else: counted last, it is
// held for the count and the COMMIT. A user without a row (made after this migration) gets one at their first save
// (src/store/snippets/usage.ts). users.stored_bytes stays, no longer read nor written by this release: a process of the
// release before, still serving during a rolling restart, saves without an error (its counts of that window go to the
// old column). A later migration drops it.
import { DataTypes, type QueryInterface } from 'sequelize';

export async function up(qi: QueryInterface): Promise<void> {
  await qi.createTable('user_storage', {
    user_id: {
      type: DataTypes.INTEGER,
      primaryKey: true,
      references: { model: 'users', key: 'id' },
      onDelete: 'CASCADE',
    },
    stored_bytes: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
  });
  await qi.sequelize.query('INSERT INTO user_storage (user_id, stored_bytes) SELECT id, stored_bytes FROM users');
}

export async function down(qi: QueryInterface): Promise<void> {
  await qi.sequelize.query(
    'UPDATE users SET stored_bytes = COALESCE((SELECT s.stored_bytes FROM user_storage s WHERE s.user_id = users.id), 0)',
  );
  await qi.dropTable('user_storage');
}
