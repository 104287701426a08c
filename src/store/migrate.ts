// Applying the schema: every pending migration, under a lock across processes and machines.
import type { Sequelize } from 'sequelize';
import type { Config } from '../config';
import { SequelizeStorage, Umzug } from 'umzug';
import { migrations } from '../migrations';
import type { Store } from './database';
import { withoutStatementDeadline } from './mysql-deadline';

function umzugFor(sequelize: Sequelize) {
  return new Umzug({
    migrations: migrations.map((m) => ({
      name: m.name,
      up: () => m.up(sequelize.getQueryInterface()),
      down: () => m.down(sequelize.getQueryInterface()),
    })),
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: undefined,
  });
}

/**
 * What a starting service does to the schema: with MIGRATE_ON_START (the default) applies what is pending and returns
 * the names applied; without, applies nothing and refuses to start on a schema that is behind (a release step was
 * to migrate it first). Either way the writer's PRAGMAs are set.
 */
export async function schemaOnStart(config: Pick<Config, 'MIGRATE_ON_START'>, store: Store): Promise<string[]> {
  if (config.MIGRATE_ON_START) return migrate(store);
  await store.engine.configure();
  const pending = (await withoutStatementDeadline(() => umzugFor(store.sequelize).pending())).map((m) => m.name);
  if (pending.length)
    throw new Error(
      `MIGRATE_ON_START=false and the database lacks ${pending.length} migration(s) (${pending.join(', ')}): run \`snippets migrate\` first`,
    );
  return [];
}

/** Applies every pending migration; returns the names applied. */
export async function migrate(store: Store): Promise<string[]> {
  await store.engine.configure();
  const { sequelize } = store;
  const umzug = umzugFor(sequelize);
  // Services started together (N machines, or tests) take turns; the second finds nothing left to apply.
  // DATABASE_TIMEOUT_MS bounds a request's statements, not a migration's (nor the wait for another's lock).
  const applied = await withoutStatementDeadline(() => store.engine.withMigrationLock(() => umzug.up()));
  return applied.map((m) => m.name);
}
