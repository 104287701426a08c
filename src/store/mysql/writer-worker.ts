// MySQL/MariaDB's writer thread (src/store/writer-thread.ts): a pool of its own on DATABASE_URL, and each work it is
// sent run in a transaction of its own as soon as it comes (writer-wire.ts workOf), many at once, under the main
// thread's deadlines: each statement DATABASE_TIMEOUT_MS, its connection killed on the server past it
// (src/store/mysql-kill.ts), a free connection waited for as long. The locks a save takes (its owner's count, a
// crowd's snippet row) are then held for its round trips, not for turns of the main thread's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { createPool, type PoolConnection } from 'mysql2';
import type { Engine, PortableWork } from '../engine';
import { withDeadline } from '../mysql-deadline';
import { Killer } from '../mysql-kill';
import { toWire, workOf, type Outcome } from '../writer-wire';
import { entryOf, MIN_TOKEN_SIZE, UPSERT_ONE, widthFrom, type Select } from './search-index';
import { killerOptions, poolOptions } from './server';
import { inTransaction, mysqlRun } from './transaction';

/** What the thread is given: the server, how many connections it may open, and the deadline of each wait. */
export interface MysqlWriterData {
  url: string;
  poolMax: number;
  timeoutMs: number;
}

const { url, poolMax, timeoutMs } = workerData as MysqlWriterData;
const port = parentPort!;

const killer = new Killer(killerOptions(url), timeoutMs);
const pool = createPool(poolOptions(url, poolMax, timeoutMs));
pool.on('connection', (connection) => withDeadline(connection, timeoutMs, killer));

/** A pooled connection within `timeoutMs`, or a store out of reach (a 503); one that comes later goes back unused. */
function connection(): Promise<PoolConnection> {
  return new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(Object.assign(new Error(`no connection for a write within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
    }, timeoutMs);
    pool.getConnection((err, taken) => {
      clearTimeout(timer);
      if (late) taken?.release();
      else if (err) reject(err);
      else resolve(taken);
    });
  });
}

let width: Promise<number> | undefined;

/** The search index's writes on the transaction's own connection (a save whose text changed under it lowers it there). */
function indexerOn(c: PoolConnection): Pick<Engine, 'searchEntry' | 'indexSnippet'> {
  const select: Select = (sql, params) => mysqlRun(c, sql, params);
  return {
    searchEntry: (title, code) => {
      if (!width) (width = select<{ n: number }>(MIN_TOKEN_SIZE, []).then(widthFrom)).catch(() => (width = undefined));
      return entryOf(title, code, select, width);
    },
    indexSnippet: async (tx, id, entry) => void (await tx.insert(UPSERT_ONE, [id, entry])),
  };
}

async function run(work: PortableWork): Promise<Outcome> {
  try {
    const c = await connection();
    try {
      return { ok: true, value: await inTransaction(c, workOf(work, indexerOn(c))) };
    } finally {
      c.release();
    }
  } catch (err) {
    return { ok: false, err };
  }
}

type Message = { id: number; works: PortableWork[] } | { close: true };

const running = new Set<Promise<unknown>>();

async function handle({ id, works }: { id: number; works: PortableWork[] }): Promise<void> {
  const outcomes: Outcome[] = [];
  for (const work of works) outcomes.push(await run(work));
  port.postMessage({ id, outcomes: outcomes.map(toWire) });
}

async function close(): Promise<void> {
  await Promise.all([...running]);
  killer.close();
  await pool.promise().end();
  port.close();
}

/** Throws `err` uncaught, which ends the thread: its 'error' fails the work it had (writer-thread.ts). */
const fatal = (err: unknown) =>
  setImmediate(() => {
    throw err;
  });

// Each message as it comes; a close waits for the work sent before it. A message that cannot be answered (an answer
// that cannot be sent) ends the thread.
port.on('message', (message: Message) => {
  if ('close' in message) {
    close().catch(fatal);
    return;
  }
  const handled = handle(message).catch(fatal);
  running.add(handled);
  void handled.finally(() => running.delete(handled));
});
