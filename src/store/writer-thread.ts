// A writer thread: a worker thread with connections of its own to the database, that runs the snippet writes'
// transactions from the first statement to the COMMIT without the main thread. On the main thread each statement of a
// transaction waits for the event loop to come round between requests (a turn of several milliseconds under a mixed
// load) while its locks are held: a SQLite group of 16 creates, some 60 statements, took hundreds of milliseconds
// while reads were served, and on MySQL/MariaDB a user's count row or a crowd's snippet row stayed locked across those
// turns. On the thread the statements follow each other at once. Each engine has its worker (the file it names):
// SQLite's runs one group at a time (src/store/sqlite/writer-worker.ts), MySQL/MariaDB's each transaction as it comes
// on a pool (src/store/mysql/writer-worker.ts). https://nodejs.org/api/worker_threads.html
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PortableWork } from './engine';
import { fromWire, type Outcome, type WireOutcome } from './writer-wire';

// Under tsx (tests, the CLI in development) the worker is TypeScript and needs the loader; from dist/ it is plain JS.
const EXTENSION = path.extname(__filename);
const WORKER_ARGV = EXTENSION === '.ts' ? ['--require', 'tsx/cjs'] : [];

interface Pending {
  modules: string[];
  resolve: (outcomes: Outcome[]) => void;
  reject: (err: unknown) => void;
}

/** Started on first use; its worker answers each `{ id, works }` with `{ id, outcomes }`, one per work it ran. */
export class WriterThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly file: string;

  /**
   * `worker`: the worker's module without its extension (this module's: .ts under tsx, .js in dist/); `data`: its
   * workerData; `endedCode`: the code of the error that fails what a thread had when it ends (the engine's error for
   * a connection lost, a 503).
   */
  constructor(
    worker: string,
    private readonly data: unknown,
    private readonly endedCode: string,
  ) {
    this.file = `${worker}${EXTENSION}`;
  }

  /** Runs `works` on the thread: the outcomes of those it ran, in order. */
  commit = (works: PortableWork[]): Promise<Outcome[]> => {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<Outcome[]>((resolve, reject) => {
      this.pending.set(id, { modules: works.map((w) => w.module), resolve, reject });
      // The thread keeps the process alive only while it has work to answer (an idle one never holds a CLI open).
      worker.ref();
      worker.postMessage({ id, works });
    });
  };

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.file, { execArgv: WORKER_ARGV, workerData: this.data });
    worker.on('message', ({ id, outcomes }: { id: number; outcomes: WireOutcome[] }) => {
      const pending = this.pending.get(id);
      if (!pending) return;
      this.pending.delete(id);
      if (this.pending.size === 0) worker.unref();
      pending.resolve(outcomes.map((o, at) => fromWire(o, pending.modules[at]!)));
    });
    // A thread that failed (its connection could not be opened, a bug) fails the work it had: the database rolled back
    // what it had not committed. The next work starts a new thread.
    const failed = (err: unknown) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const { reject } of this.pending.values()) reject(err);
      this.pending.clear();
    };
    worker.on('error', failed);
    worker.on('exit', (code) =>
      failed(Object.assign(new Error(`a writer thread ended (${code})`), { code: this.endedCode })),
    );
    return (this.worker = worker);
  }

  /** Ends the thread once the work it has is done: its connections are closed first. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref();
    worker.postMessage({ close: true });
    await exited;
  }
}
