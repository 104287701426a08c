// A lock across processes and machines around migrating, so services started together do not migrate twice at once.
import sqlite3 from 'sqlite3';
import { QueryTypes, type Sequelize } from 'sequelize';

const LOCK_NAME = 'snippets_migrate';
const WAIT_SECONDS = 120;

/** Runs `work` while holding the database's migration lock (a no-op for an in-memory database: one process). */
export async function withMigrationLock<T>(sequelize: Sequelize, sqliteFile: string | undefined, work: () => Promise<T>): Promise<T> {
  if (sequelize.getDialect() !== 'sqlite') return withMysqlLock(sequelize, work);
  return sqliteFile ? withSqliteLock(`${sqliteFile}-migrate.lock`, work) : work();
}

/** MySQL/MariaDB: a named lock held by one pooled connection (a transaction pins it) while the work runs on others. */
async function withMysqlLock<T>(sequelize: Sequelize, work: () => Promise<T>): Promise<T> {
  return sequelize.transaction(async (transaction) => {
    const [row] = await sequelize.query<{ got: number | null }>('SELECT GET_LOCK(?, ?) AS got', { replacements: [LOCK_NAME, WAIT_SECONDS], type: QueryTypes.SELECT, transaction });
    if (row?.got !== 1) throw new Error(`could not take the migration lock within ${WAIT_SECONDS} s`);
    try {
      return await work();
    } finally {
      await sequelize.query('SELECT RELEASE_LOCK(?)', { replacements: [LOCK_NAME], type: QueryTypes.SELECT, transaction });
    }
  });
}

/** SQLite: an exclusive transaction on a side file; a second process's BEGIN waits in the busy handler. */
async function withSqliteLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  const db = new sqlite3.Database(file);
  const run = (sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
  try {
    db.configure('busyTimeout', WAIT_SECONDS * 1000);
    await run('BEGIN EXCLUSIVE');
    try {
      return await work();
    } finally {
      await run('COMMIT');
    }
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}
