// `npx tsx bench/key-lookup.ts`: the CPU of one SELECT of a row by key, one after another, on a reader's driver
// (node-sqlite3: libuv's pool and back) and on the key reader's (node:sqlite, at once on the main thread): the
// measure behind src/store/sqlite/key-reader.ts (docs/scaling.md "Lookups by key on the main thread").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import sqlite3 from 'sqlite3';

const N = Number(process.env.BENCH_LOOKUPS ?? 20000);
const SQL = 'SELECT id, username FROM users WHERE username = ?';

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snippets-key-lookup-'));
  const file = path.join(dir, 'db.sqlite3');
  try {
    const setup = new DatabaseSync(file);
    setup.exec('PRAGMA journal_mode = WAL; CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT UNIQUE);');
    setup.exec(
      `INSERT INTO users (username) SELECT 'user' || value FROM (WITH RECURSIVE c(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM c WHERE value < 10000) SELECT value FROM c)`,
    );
    setup.close();

    const measure = async (name: string, one: () => Promise<unknown> | unknown) => {
      for (let i = 0; i < 1000; i++) await one();
      const elu0 = performance.eventLoopUtilization();
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < N; i++) await one();
      const cpu = process.cpuUsage(cpu0);
      const elu = performance.eventLoopUtilization(elu0);
      console.log(
        `${name}: ${((cpu.user + cpu.system) / N).toFixed(1)} µs of the process's CPU a lookup, ` +
          `${((elu.active * 1000) / N).toFixed(1)} µs of the main thread's`,
      );
    };

    const reader = await new Promise<sqlite3.Database>((resolve, reject) => {
      const db = new sqlite3.Database(file, sqlite3.OPEN_READWRITE, (err) => (err ? reject(err) : resolve(db)));
    });
    const prepared = reader.prepare(SQL);
    await measure('node-sqlite3, on libuv’s pool', () => {
      return new Promise((resolve, reject) =>
        prepared.all(['user5000'], (err, rows) => (err ? reject(err) : resolve(rows))),
      );
    });
    await new Promise((resolve) => prepared.finalize(resolve));
    await new Promise((resolve) => reader.close(resolve));

    const sync = new DatabaseSync(file);
    const statement = sync.prepare(SQL);
    await measure('node:sqlite, at once', () => statement.all('user5000'));
    sync.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
