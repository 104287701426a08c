// Applying the schema: every pending migration, under a lock across processes and machines.
import type { Sequelize } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';
import { migrations } from '../migrations';
import { configureWriter, database, sqliteFile } from './database';
import { withMigrationLock } from './migration-lock';
import { withoutStatementDeadline } from './mysql-deadline';

/** Applies every pending migration; returns the names applied. */
export async function migrate(sequelize: Sequelize = database()): Promise<string[]> {
  await configureWriter();
  const umzug = new Umzug({
    migrations: migrations.map((m) => ({ name: m.name, up: () => m.up(sequelize.getQueryInterface()), down: () => m.down(sequelize.getQueryInterface()) })),
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: undefined,
  });
  // Services started together (N machines, or tests) take turns; the second finds nothing left to apply.
  // DATABASE_TIMEOUT_MS bounds a request's statements, not a migration's (nor the wait for another's lock).
  const applied = await withoutStatementDeadline(() => withMigrationLock(sequelize, sqliteFile(sequelize), () => umzug.up()));
  return applied.map((m) => m.name);
}
