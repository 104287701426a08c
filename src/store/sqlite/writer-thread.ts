// SQLite's writer thread: a worker thread with a connection of its own to the file, that runs the snippet writes' groups
// of transactions (group-commit.ts) from the first statement to the COMMIT without the main thread. On the main
// thread each statement of a group waited for the event loop to come round between requests (a turn of several
// milliseconds under a mixed load), so a group of 16 creates, some 60 statements, took hundreds of milliseconds while
// reads were served; here its statements follow each other at once. The main thread still holds the writer's line
// while the thread runs a group, so the process's two connections never write at once; the thread takes the file's
// lock itself (take-lock.ts), so a cluster's write turn is not asked for a group.
// https://nodejs.org/api/worker_threads.html
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PortableWork } from '../engine';
import type { Outcome } from './group-commit';
import { fromWire, type WireOutcome } from './writer-wire';

// Under tsx (tests, the CLI in development) the worker is TypeScript and needs the loader; from dist/ it is plain JS.
const WORKER_FILE = path.join(__dirname, `writer-worker${path.extname(__filename)}`);
const WORKER_ARGV = __filename.endsWith('.ts') ? ['--require', 'tsx/cjs'] : [];

interface Pending {
  modules: string[];
  resolve: (outcomes: Outcome[]) => void;
  reject: (err: unknown) => void;
}

/** What the thread is given: the file, the PRAGMAs of its connection, and how long a group waits for the file's lock. */
export interface WriterThreadData {
  file: string;
  pragmas: string[];
  /** The bound of take-lock.ts's wait: past it the group fails as SQLITE_BUSY (a 503). */
  lockWaitMs: number;
}

/** The thread runs one group at a time (the main thread's writer line sends one); started on first use. */
export class WriterThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly data: WriterThreadData) {}

  /** Runs `works` as one group on the thread: the outcomes of those it ran, in order (commitGroup's). */
  commit = (works: PortableWork[]): Promise<Outcome[]> => {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<Outcome[]>((resolve, reject) => {
      this.pending.set(id, { modules: works.map((w) => w.module), resolve, reject });
      // The thread keeps the process alive only while it has a group to answer (an idle one never holds a CLI open).
      worker.ref();
      worker.postMessage({ id, works });
    });
  };

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_FILE, { execArgv: WORKER_ARGV, workerData: this.data });
    worker.on('message', ({ id, outcomes }: { id: number; outcomes: WireOutcome[] }) => {
      const pending = this.pending.get(id);
      if (!pending) return;
      this.pending.delete(id);
      if (this.pending.size === 0) worker.unref();
      pending.resolve(outcomes.map((o, at) => fromWire(o, pending.modules[at]!)));
    });
    // A thread that failed (its connection could not be opened, a bug) fails the groups it had: SQLite rolled back what
    // they had not committed. The next group starts a new thread.
    const failed = (err: unknown) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const { reject } of this.pending.values()) reject(err);
      this.pending.clear();
    };
    worker.on('error', failed);
    worker.on('exit', (code) =>
      failed(Object.assign(new Error(`SQLite's writer thread ended (${code})`), { code: 'SQLITE_IOERR' })),
    );
    return (this.worker = worker);
  }

  /** Ends the thread once its group is done: its connection is closed, its statements finalized first. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref();
    worker.postMessage({ close: true });
    await exited;
  }
}
