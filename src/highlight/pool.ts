// A pool of worker threads (highlight.js grammars, diffs) with a deadline: a job past it gets null, and its worker is
// ended and replaced. The highlighter and the differ each hold pools of their own (src/highlight/differ.ts).
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DiffJob, Done, Job, Ready } from './worker';

interface Pending {
  job: Job;
  resolve: (html: string | null) => void;
  submitted: number;
  /**
   * Counted from submission: a job never waits longer than the deadline, queued or running, except while the pool has
   * no worker ready (its first start, or every worker being replaced): a start-up is the pool's cost, not the job's.
   */
  deadline: number;
}

interface Slot {
  worker: Worker;
  /** Its script has loaded (its first message said so): it takes jobs. */
  ready: boolean;
  current?: Pending;
  timer?: NodeJS.Timeout;
}

/** A worker that has not loaded in this long is ended, and the jobs waiting for the pool answered null: nothing waits forever. */
const STARTUP_LIMIT_MS = 30_000;

// Under tsx (tests, the CLI in development) the worker is TypeScript and needs the loader; from dist/ it is plain JS.
const WORKER_FILE = path.join(__dirname, `worker${path.extname(__filename)}`);
const WORKER_ARGV = __filename.endsWith('.ts') ? ['--require', 'tsx/cjs'] : [];

export class HighlightPool {
  private slots: Slot[] = [];
  private queue: Pending[] = [];
  private nextId = 1;
  /** Since when no worker has been ready, if none is. */
  private coldSince: number | undefined;

  constructor(
    private readonly size = Math.max(1, os.availableParallelism()),
    private readonly timeoutMs = 2000,
  ) {}

  highlight(code: string, language: string): Promise<string | null> {
    return this.run({ code, language });
  }

  /** The language highlight.js guesses for `code`; null when it guesses none or past the deadline. */
  detect(code: string): Promise<string | null> {
    return this.run({ code, language: '', detect: true });
  }

  /** A unified diff, under the pool's deadline; null past it or past the job's bound of changed lines. */
  diff(job: Omit<DiffJob, 'timeoutMs'>): Promise<string | null> {
    return this.run({ code: '', language: '', diff: { ...job, timeoutMs: this.timeoutMs } });
  }

  /** Jobs running or waiting for a worker. */
  get load(): number {
    return this.queue.length + this.slots.filter((s) => s.current).length;
  }

  private run(job: Omit<Job, 'id'>): Promise<string | null> {
    return new Promise((resolve) => {
      const now = Date.now();
      this.queue.push({ job: { id: this.nextId++, ...job }, resolve, submitted: now, deadline: now + this.timeoutMs });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    const slots = this.slots;
    this.slots = [];
    for (const p of this.queue.splice(0)) p.resolve(null);
    // A job running now is answered too: its caller must not wait on a worker that is gone.
    for (const s of slots) s.current?.resolve(null);
    await Promise.all(slots.map((s) => this.retire(s)));
  }

  private dispatch(): void {
    while (this.queue.length) {
      const slot = this.slots.find((s) => s.ready && !s.current);
      if (!slot) {
        let starting = this.slots.filter((s) => !s.ready).length;
        while (this.slots.length < this.size && starting++ < this.queue.length) this.spawn();
        return;
      }
      const pending = this.queue.shift()!;
      const left = pending.deadline - Date.now();
      if (left <= 0) {
        pending.resolve(null);
        continue;
      }
      slot.current = pending;
      slot.worker.ref();
      slot.timer = setTimeout(() => this.expire(slot), left);
      slot.worker.postMessage(pending.job);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_FILE, { execArgv: WORKER_ARGV });
    const slot: Slot = { worker, ready: false };
    if (!this.slots.some((s) => s.ready)) this.coldSince ??= Date.now();
    worker.on('message', (done: Done | Ready) => {
      if ('ready' in done) return this.warmed(slot);
      if (slot.current?.job.id !== done.id) return;
      this.finish(slot, done.html);
    });
    worker.on('error', () => this.replace(slot));
    // Started for a job waiting: it keeps the process alive until it has loaded and taken one (then only while busy).
    slot.timer = setTimeout(() => this.failedToStart(slot), STARTUP_LIMIT_MS);
    this.slots.push(slot);
    return slot;
  }

  /** A worker has loaded: the jobs that waited for the pool to have one get back the time they waited. */
  private warmed(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.ready = true;
    if (this.coldSince !== undefined) {
      const now = Date.now();
      for (const p of this.queue) p.deadline += now - Math.max(p.submitted, this.coldSince);
      this.coldSince = undefined;
    }
    this.dispatch();
    if (!slot.current) slot.worker.unref(); // an idle pool never keeps the process alive
  }

  private failedToStart(slot: Slot): void {
    this.slots = this.slots.filter((s) => s !== slot);
    void this.retire(slot);
    if (!this.slots.length) for (const p of this.queue.splice(0)) p.resolve(null);
  }

  private finish(slot: Slot, html: string | null): void {
    clearTimeout(slot.timer);
    const pending = slot.current;
    slot.current = undefined;
    slot.worker.unref();
    pending?.resolve(html);
    this.dispatch();
  }

  /** Past the deadline the grammar may run for minutes: end the thread, answer null, start a fresh one. */
  private expire(slot: Slot): void {
    this.replace(slot);
  }

  private replace(slot: Slot): void {
    const pending = slot.current;
    slot.current = undefined;
    clearTimeout(slot.timer);
    this.slots = this.slots.filter((s) => s !== slot);
    if (!this.slots.some((s) => s.ready)) this.coldSince ??= Date.now();
    void this.retire(slot);
    pending?.resolve(null);
    this.dispatch();
  }

  private async retire(slot: Slot): Promise<void> {
    clearTimeout(slot.timer);
    slot.worker.removeAllListeners('message');
    await slot.worker.terminate();
  }
}
