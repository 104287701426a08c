// A worker's side of the write turn (src/store/write-turn.ts): its writer's line, which asks the primary for the turn
// once it is the process's next writer, so that only one transaction per process asks at a time, and hands a turn it
// holds straight to the process's next writer, a burst of TURN_BURST at most, before it gives it back.
import cluster from 'node:cluster';
import type { Abortable } from './cancellation';
import { Gate } from './gate';
import { isTurnMessage, type TurnMessage } from './write-turn';

/** The IPC channel to the primary (the worker's process, or a stand-in in tests). */
export interface TurnChannel {
  send(message: TurnMessage): void;
  on(event: 'message', listener: (message: unknown) => void): void;
}

const processChannel: TurnChannel = {
  send: (message) => process.send?.(message),
  on: (event, listener) => process.on(event, listener),
};

/** Asks of this process, numbered across its stores, so that an answer is never taken for another store's. */
let lastAsk = 0;

/** The turn asked for and not granted within SQLITE_WRITE_TURN_TIMEOUT_MS: a busy store, 503 with Retry-After. */
function noTurn(ms: number): Error {
  return Object.assign(new Error(`no write turn on the SQLite file within ${ms} ms`), { code: 'SQLITE_BUSY' });
}

/** Asks the primary for the turn and gives it back. */
export class TurnClient {
  private readonly waiting = new Map<number, () => void>();

  constructor(
    private readonly timeoutMs: number,
    private readonly channel: TurnChannel = processChannel,
  ) {
    channel.on('message', (message) => {
      // A go for an ask given up finds no one: its done has already reached the primary, which passed the turn on.
      if (isTurnMessage(message) && message.writeTurn === 'go') this.waiting.get(message.id)?.();
    });
  }

  /** Resolves with the ask's id once the turn is this process's; rejects as busy past the timeout. */
  take(): Promise<number> {
    const id = ++lastAsk;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        this.channel.send({ writeTurn: 'done', id }); // out of the line, or the turn back if it is on its way
        reject(noTurn(this.timeoutMs));
      }, this.timeoutMs);
      this.waiting.set(id, () => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(id);
      });
      this.channel.send({ writeTurn: 'ask', id });
    });
  }

  give(id: number): void {
    this.channel.send({ writeTurn: 'done', id });
  }
}

/**
 * How many transactions of one process run on one write turn at most, one after the other, when more of them wait in
 * its line: each ask costs two messages (ask, go) through both processes' event loops, during which the file takes no
 * write; a burst pays that once. The other process's writers wait one burst at most longer than in strict turns.
 */
export const TURN_BURST = 8;

/**
 * The writer's line of one process (width 1, first come first served) whose holder also holds the write turn. A holder
 * that leaves while others wait in the line passes the turn on with its place (TURN_BURST transactions in a row at most).
 */
export class TurnGate extends Gate {
  private held?: number;
  /** The transactions run on the turn held. */
  private burst = 0;

  constructor(private readonly turns: TurnClient) {
    super(1);
  }

  /** `turn` false: the line only, for a group the writer thread runs (it takes the file's lock itself: take-lock.ts). */
  override async enter(urgent = false, stop?: Abortable, turn = true): Promise<void> {
    await super.enter(urgent, stop);
    if (this.held !== undefined) return void this.burst++; // passed on with the place by the last holder
    if (!turn) return;
    try {
      this.held = await this.turns.take();
      this.burst = 1;
    } catch (err) {
      super.leave();
      throw err;
    }
  }

  override leave(): void {
    if (this.held !== undefined && (this.burst >= TURN_BURST || !this.crowded)) {
      this.turns.give(this.held);
      this.held = undefined;
    }
    super.leave();
  }
}

/** A writer's line: a plain Gate (which takes no turn), or a TurnGate. */
export interface WriterLine {
  enter(urgent?: boolean, stop?: AbortSignal, turn?: boolean): Promise<void>;
  leave(): void;
}

/**
 * The line for a SQLite store's writer: in a cluster worker on a file, one that takes the write turn; else a plain
 * line (one process on a file needs no turn: its writes share one connection; in memory no other process sees it).
 */
export function writerLine(file: boolean, turnTimeoutMs: number): WriterLine {
  return file && cluster.isWorker ? new TurnGate(new TurnClient(turnTimeoutMs)) : new Gate(1);
}
