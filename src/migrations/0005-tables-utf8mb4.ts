// MySQL/MariaDB: every table of ours in utf8mb4 with the binary collation, whatever the server's default was when the
// earlier migrations ran (a latin1 default stored "😀" as "?" or failed the write; a *_ci collation compared
// usernames without regard to case). SQLite stores UTF-8 and compares bytes already: nothing to do there.
import { QueryTypes, type QueryInterface } from 'sequelize';

export const CHARSET = 'utf8mb4';
export const COLLATION = 'utf8mb4_bin';

/** The tables the earlier migrations made (throttle_counters is rate-limiter-flexible's, keyed by hex digests). */
const TABLES = [
  'users',
  'snippets',
  'tokens',
  'sessions',
  'oauth_clients',
  'oauth_tokens',
  'oauth1_consumers',
  'oauth1_tokens',
  'oauth1_nonces',
];

export async function up(qi: QueryInterface): Promise<void> {
  const sequelize = qi.sequelize;
  if (sequelize.getDialect() === 'sqlite') return;
  const rows = await sequelize.query<{ name: string; collation: string }>(
    'SELECT TABLE_NAME AS name, TABLE_COLLATION AS collation FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (:tables)',
    { replacements: { tables: TABLES }, type: QueryTypes.SELECT },
  );
  // A table already in utf8mb4_bin (a database created that way, as the docs ask) is not rebuilt.
  for (const { name } of rows.filter((r) => r.collation !== COLLATION)) {
    await sequelize.query(
      `ALTER TABLE ${qi.quoteIdentifier(name)} CONVERT TO CHARACTER SET ${CHARSET} COLLATE ${COLLATION}`,
    );
  }
  // Tables made by later migrations take the database's default: make it ours too.
  await sequelize.query(`ALTER DATABASE CHARACTER SET ${CHARSET} COLLATE ${COLLATION}`);
}

export async function down(): Promise<void> {
  // The earlier character set is not recorded; utf8mb4 holds everything it held.
}
