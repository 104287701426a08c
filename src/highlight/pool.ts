// A pool of highlighting workers with a deadline: a job past it gets null, and its worker is ended and replaced.
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DiffJob, Done, Job } from './worker';

interface Pending {
  job: Job;
  resolve: (html: string | null) => void;
  /** Counted from submission: a job never waits longer than the deadline, queued or running. */
  deadline: number;
}

interface Slot {
  worker: Worker;
  current?: Pending;
  timer?: NodeJS.Timeout;
}

// Under tsx (tests, the CLI in development) the worker is TypeScript and needs the loader; from dist/ it is plain JS.
const WORKER_FILE = path.join(__dirname, `worker${path.extname(__filename)}`);
const WORKER_ARGV = __filename.endsWith('.ts') ? ['--require', 'tsx/cjs'] : [];

export class HighlightPool {
  private slots: Slot[] = [];
  private queue: Pending[] = [];
  private nextId = 1;

  constructor(
    private readonly size = Math.max(1, os.availableParallelism()),
    private readonly timeoutMs = 2000,
  ) {}

  highlight(code: string, language: string): Promise<string | null> {
    return this.run({ code, language });
  }

  /** A unified diff, under the same deadline as a rendering; null past it. */
  diff(job: Omit<DiffJob, 'timeoutMs'>): Promise<string | null> {
    return this.run({ code: '', language: '', diff: { ...job, timeoutMs: this.timeoutMs } });
  }

  private run(job: Omit<Job, 'id'>): Promise<string | null> {
    return new Promise((resolve) => {
      this.queue.push({ job: { id: this.nextId++, ...job }, resolve, deadline: Date.now() + this.timeoutMs });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    const slots = this.slots;
    this.slots = [];
    for (const p of this.queue.splice(0)) p.resolve(null);
    await Promise.all(slots.map((s) => this.retire(s)));
  }

  private dispatch(): void {
    while (this.queue.length) {
      const slot = this.slots.find((s) => !s.current) ?? (this.slots.length < this.size ? this.spawn() : undefined);
      if (!slot) return;
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
    const slot: Slot = { worker };
    worker.on('message', (done: Done) => {
      if (slot.current?.job.id !== done.id) return;
      this.finish(slot, done.html);
    });
    worker.on('error', () => this.replace(slot));
    worker.unref(); // an idle pool never keeps the process alive
    this.slots.push(slot);
    return slot;
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
