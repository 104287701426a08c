// MySQL/MariaDB's lock across processes and machines around migrating, so services started together do not migrate
// twice at once.
import { randomUUID } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { isConflict, isDuplicate } from '../errors';

const LOCK_NAME = 'snippets_migrate';
/** How long a process waits for another's migration, by default. */
export const MIGRATION_WAIT_SECONDS = 120;

/** How long a claim lasts unless renewed: a holder killed mid-migration frees the lock after this. */
const CLAIM_SECONDS = 60;
const RENEW_MS = 15_000;
const LOCK_TABLE = 'schema_migration_lock';

/**
 * MySQL/MariaDB, Galera included: a row of a table of ours, claimed by an INSERT that commits. A named lock
 * (GET_LOCK) is local to one Galera node, so two instances on two nodes would both migrate; a row's primary key is
 * what every node agrees on (a second INSERT fails, or loses certification). The holder renews its claim while it
 * works; a claim left by a process that died expires after CLAIM_SECONDS and is taken over.
 */
export async function withMysqlLock<T>(
  sequelize: Sequelize,
  work: () => Promise<T>,
  waitSeconds = MIGRATION_WAIT_SECONDS,
): Promise<T> {
  const table = sequelize.getQueryInterface().quoteIdentifier(LOCK_TABLE);
  await sequelize.query(
    `CREATE TABLE IF NOT EXISTS ${table} (name VARCHAR(64) NOT NULL PRIMARY KEY, holder VARCHAR(64) NOT NULL, expires DATETIME(6) NOT NULL) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin ENGINE=InnoDB`,
  );
  const holder = randomUUID();
  const giveUp = Date.now() + waitSeconds * 1000;
  for (;;) {
    try {
      await sequelize.query(`DELETE FROM ${table} WHERE name = ? AND expires < UTC_TIMESTAMP(6)`, {
        replacements: [LOCK_NAME],
      });
      await sequelize.query(
        `INSERT INTO ${table} (name, holder, expires) VALUES (?, ?, UTC_TIMESTAMP(6) + INTERVAL ${CLAIM_SECONDS} SECOND)`,
        { replacements: [LOCK_NAME, holder] },
      );
      break;
    } catch (err) {
      // Another holder's row is there (a duplicate key), or a concurrent claim won (a deadlock, or on Galera a lost
      // certification, which MariaDB reports as a deadlock).
      if (!isDuplicate(err) && !isConflict(err)) throw err;
      if (Date.now() > giveUp)
        throw new Error(
          `could not take the migration lock within ${waitSeconds} s (held by another process; a dead holder's claim expires after ${CLAIM_SECONDS} s)`,
        );
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 400));
    }
  }
  const renew = setInterval(() => {
    const sql = `UPDATE ${table} SET expires = UTC_TIMESTAMP(6) + INTERVAL ${CLAIM_SECONDS} SECOND WHERE name = ? AND holder = ?`;
    sequelize.query(sql, { replacements: [LOCK_NAME, holder] }).catch(() => {}); // a missed renewal is retried next time
  }, RENEW_MS);
  try {
    return await work();
  } finally {
    clearInterval(renew);
    await sequelize.query(`DELETE FROM ${table} WHERE name = ? AND holder = ?`, { replacements: [LOCK_NAME, holder] });
  }
}
