// The database a bench runs on: a fresh SQLite file, or the MariaDB/MySQL database of BENCH_DATABASE_URL made ready for it.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import sqlite3 from 'sqlite3';

export interface Engine {
  /** For the report: "SQLite" or "MariaDB/MySQL (database name)". */
  name: string;
  /** The service's DATABASE_URL. */
  url: string;
  /** Rows in a table, or undefined when the table does not exist. */
  countRows(table: string): Promise<number | undefined>;
  /** Removes the SQLite file; a MariaDB database keeps what the run wrote. */
  close(): Promise<void>;
}

/** A user name no earlier run on a shared database has taken. */
export function uniqueUsername(prefix = 'bench'): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}

export async function openEngine(): Promise<Engine> {
  const url = process.env.BENCH_DATABASE_URL;
  if (url?.startsWith('mysql://')) return openMysql(url);
  if (url) throw new Error('BENCH_DATABASE_URL must be a mysql:// URL (SQLite runs on a fresh file by default)');
  return openSqlite();
}

export function openSqlite(): Engine {
  const dir = mkdtempSync(path.join(tmpdir(), 'snippets-bench-'));
  const file = path.join(dir, 'bench.sqlite3');
  return {
    name: 'SQLite',
    url: `sqlite:${file}`,
    async countRows(table) {
      // Read-only beside the running service: WAL lets it read while the service writes.
      const db = await new Promise<sqlite3.Database>((resolve, reject) => {
        const d = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (err) => (err ? reject(err) : resolve(d)));
      });
      const get = <T>(sql: string, params: unknown[]) =>
        new Promise<T | undefined>((resolve, reject) =>
          db.get(sql, params, (err, row: T) => (err ? reject(err) : resolve(row))),
        );
      try {
        db.configure('busyTimeout', 5000);
        const exists = await get<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?", [
          table,
        ]);
        if (!exists) return undefined;
        return (await get<{ n: number }>(`SELECT COUNT(*) AS n FROM "${table}"`, []))!.n;
      } finally {
        await new Promise((r) => db.close(r));
      }
    },
    async close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function openMysql(url: string): Promise<Engine> {
  const database = decodeURIComponent(new URL(url).pathname.slice(1));
  const connect = () => mysql.createConnection({ uri: url, connectTimeout: 10000 });
  // Only a database named for benches or tests is emptied: anything else may hold data this run did not make.
  if (/bench|test/i.test(database)) {
    const conn = await connect();
    try {
      const [tables] = await conn.query<mysql.RowDataPacket[]>(
        'SELECT table_name AS t FROM information_schema.tables WHERE table_schema = DATABASE()',
      );
      await conn.query('SET FOREIGN_KEY_CHECKS = 0');
      for (const { t } of tables) await conn.query(`DROP TABLE IF EXISTS \`${String(t).replace(/`/g, '``')}\``);
      await conn.query('SET FOREIGN_KEY_CHECKS = 1');
    } finally {
      await conn.end();
    }
  }
  return {
    name: `MariaDB/MySQL (${database})`,
    url,
    async countRows(table) {
      const conn = await connect();
      try {
        const [exists] = await conn.query<mysql.RowDataPacket[]>(
          'SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?',
          [table],
        );
        if (!exists.length) return undefined;
        const [rows] = await conn.query<mysql.RowDataPacket[]>(`SELECT COUNT(*) AS n FROM \`${table}\``);
        return Number(rows[0]!.n);
      } finally {
        await conn.end();
      }
    },
    async close() {},
  };
}
