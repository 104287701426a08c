// A connection of its own to the SQLite file, with PRAGMAs applied before its first statement: the readers' (engine.ts)
// and the writer thread's (writer-worker.ts). Each connection has its own PRAGMAs: https://www.sqlite.org/pragma.html
import sqlite3 from 'sqlite3';
import { exec } from './transaction';

export async function openConnection(file: string, pragmas: readonly string[]): Promise<sqlite3.Database> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(file, sqlite3.OPEN_READWRITE, (err) => (err ? reject(err) : resolve(opened)));
  });
  await exec(db, pragmas.map((p) => `PRAGMA ${p};`).join(''));
  return db;
}
