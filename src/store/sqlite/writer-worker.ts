// SQLite's writer thread (src/store/writer-thread.ts): one connection to the file, and each group it is sent run by
// commitGroup, the works loaded by name from their module (writer-wire.ts workOf), each group's transaction opened
// with the file's lock taken by the thread itself (take-lock.ts).
import { parentPort, workerData } from 'node:worker_threads';
import type { PortableWork } from '../engine';
import { commitGroup } from './group-commit';
import { beginImmediate } from './take-lock';
import { openConnection } from './connection';
import { writerStatements } from './transaction';
import { toWire, workOf } from '../writer-wire';

/** What the thread is given: the file, the PRAGMAs of its connection, and how long a group waits for the file's lock. */
export interface SqliteWriterData {
  file: string;
  pragmas: string[];
  /** The bound of take-lock.ts's wait: past it the group fails as SQLITE_BUSY (a 503). */
  lockWaitMs: number;
}

const { file, pragmas, lockWaitMs } = workerData as SqliteWriterData;
const port = parentPort!;

const connection = openConnection(file, pragmas);
// Awaited by each message's handling, which fails the thread when it cannot be opened (below).
connection.catch(() => {});

type Message = { id: number; works: PortableWork[] } | { close: true };

async function handle(message: Message): Promise<void> {
  const db = await connection;
  if ('close' in message) {
    await writerStatements.finalize(db);
    await new Promise((resolve) => db.close(resolve));
    port.close();
    return;
  }
  const outcomes = await commitGroup(
    db,
    message.works.map((w) => workOf(w)),
    (db) => beginImmediate(db, lockWaitMs),
  );
  port.postMessage({ id: message.id, outcomes: outcomes.map(toWire) });
}

// One message at a time, in the order sent: a close waits for the group before it.
// A message that cannot be handled (the connection never opened, an answer that cannot be sent) ends the thread with
// an uncaught exception, whatever the process's --unhandled-rejections mode: its 'error' fails the groups it had
// (writer-thread.ts) instead of leaving them, and the writer's line, waiting forever.
let handled = Promise.resolve();
port.on('message', (message: Message) => {
  handled = handled
    .then(() => handle(message))
    .catch((err: unknown) => {
      setImmediate(() => {
        throw err;
      });
    });
});
