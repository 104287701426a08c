// The write turn of a SQLite file shared by WEB_CONCURRENCY workers: the cluster primary hands it to one write
// transaction at a time, first asked first served, so that waiting writers take the file's lock in order instead of
// polling for it in SQLite's sleeping busy handler (docs/scaling.md, "Writes from several processes").
import type { EventEmitter } from 'node:events';

/** What a worker and the primary say about turns over the cluster's IPC channel; `id` names one ask of one worker. */
export interface TurnMessage {
  writeTurn: 'ask' | 'go' | 'done';
  id: number;
}

export function isTurnMessage(message: unknown): message is TurnMessage {
  const m = message as Partial<TurnMessage> | null;
  return typeof m === 'object' && m !== null && typeof m.writeTurn === 'string' && typeof m.id === 'number';
}

interface Ask {
  /** Who asked (a worker's id). */
  owner: number;
  id: number;
  grant: () => void;
}

/** Runs `work` after `ms`, unless the function it returns is called first. */
export type Schedule = (work: () => void, ms: number) => () => void;

const realSchedule: Schedule = (work, ms) => {
  const timer = setTimeout(work, ms);
  return () => clearTimeout(timer);
};

/**
 * The line for the turn, in the primary. One holder at a time; the others wait in the order they asked. A holder keeps
 * the turn until it says done, its process exits (gone), or `leaseMs` pass: then the turn moves on, and should the
 * holder still hold the file's lock, the next one waits for it in SQLite's busy handler as before (the file's lock,
 * not the turn, is what keeps two writes apart; the turn only puts them in order).
 */
export class TurnLine {
  private holder?: Ask;
  private endLease?: () => void;
  private readonly line: Ask[] = [];

  constructor(
    private readonly leaseMs: number,
    private readonly schedule: Schedule = realSchedule,
  ) {}

  ask(owner: number, id: number, grant: () => void): void {
    this.line.push({ owner, id, grant });
    this.next();
  }

  /** The turn given back, or an ask given up (its asker stopped waiting): taken out of the line. */
  done(owner: number, id: number): void {
    if (this.holder?.owner === owner && this.holder.id === id) return this.release();
    const at = this.line.findIndex((a) => a.owner === owner && a.id === id);
    if (at >= 0) this.line.splice(at, 1);
  }

  /** The asker's process has exited: its turn, if it held it, passes on, and its asks leave the line. */
  gone(owner: number): void {
    for (let at = this.line.length - 1; at >= 0; at--) if (this.line[at]!.owner === owner) this.line.splice(at, 1);
    if (this.holder?.owner === owner) this.release();
  }

  private release(): void {
    this.endLease?.();
    this.endLease = this.holder = undefined;
    this.next();
  }

  private next(): void {
    if (this.holder) return;
    const ask = this.line.shift();
    if (!ask) return;
    this.holder = ask;
    this.endLease = this.schedule(() => {
      if (this.holder === ask) this.release();
    }, this.leaseMs);
    ask.grant();
  }
}

/** The cluster's side the primary hears its workers on (node:cluster, or a stand-in in tests). */
export interface Workers extends EventEmitter {
  on(event: 'message', listener: (worker: TurnWorker, message: unknown) => void): this;
  on(event: 'exit', listener: (worker: TurnWorker) => void): this;
}

export interface TurnWorker {
  id: number;
  send(message: TurnMessage): unknown;
}

/** In the cluster's primary: serves the write turn to the workers, `leaseMs` at most per holder. */
export function serveWriteTurns(workers: Workers, leaseMs: number): TurnLine {
  const turns = new TurnLine(leaseMs);
  workers.on('message', (worker, message) => {
    if (!isTurnMessage(message)) return;
    if (message.writeTurn === 'ask')
      turns.ask(worker.id, message.id, () => worker.send({ writeTurn: 'go', id: message.id }));
    else if (message.writeTurn === 'done') turns.done(worker.id, message.id);
  });
  workers.on('exit', (worker) => turns.gone(worker.id));
  return turns;
}
