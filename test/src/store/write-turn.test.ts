// The write turn of WEB_CONCURRENCY workers on one SQLite file (src/store/write-turn.ts, write-turn-gate.ts): granted
// one at a time in the order asked, passed on when its holder's process exits or its lease ends, and a wait for it
// bounded (a busy store, 503). Fake requesters and a fake cluster: no process, no clock but an injected one.
import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import {
  serveWriteTurns,
  TurnLine,
  type Schedule,
  type TurnMessage,
  type Workers,
} from '../../../src/store/write-turn';
import { TURN_BURST, TurnClient, TurnGate, type TurnChannel } from '../../../src/store/write-turn-gate';
import { STORE_BUSY, unavailableDetail } from '../../../src/store/errors';

/** A schedule whose timers fire only when the test says so. */
function manualSchedule() {
  const pending = new Set<() => void>();
  const schedule: Schedule = (work) => {
    pending.add(work);
    return () => pending.delete(work);
  };
  return {
    schedule,
    fireAll: () => {
      for (const work of [...pending]) {
        pending.delete(work);
        work();
      }
    },
  };
}

describe('TurnLine (the primary’s write turn)', () => {
  it('grants the turn to one asker at a time, in the order they asked, across owners', () => {
    const line = new TurnLine(60_000, manualSchedule().schedule);
    const granted: string[] = [];
    const asks: [number, number][] = [
      [1, 1],
      [2, 1],
      [1, 2],
      [2, 2],
      [3, 1],
    ];
    for (const [owner, id] of asks) line.ask(owner, id, () => granted.push(`${owner}.${id}`));
    expect(granted).to.deep.equal(['1.1']);
    line.done(1, 1);
    expect(granted).to.deep.equal(['1.1', '2.1']);
    line.done(1, 2); // not the holder: an ask given up, out of the line
    line.done(2, 1);
    expect(granted).to.deep.equal(['1.1', '2.1', '2.2']);
    line.done(2, 2);
    expect(granted).to.deep.equal(['1.1', '2.1', '2.2', '3.1']);
  });

  it('passes the turn on when its holder’s process is gone, and drops that process’s asks', () => {
    const line = new TurnLine(60_000, manualSchedule().schedule);
    const granted: string[] = [];
    line.ask(1, 1, () => granted.push('1.1'));
    line.ask(1, 2, () => granted.push('1.2'));
    line.ask(2, 1, () => granted.push('2.1'));
    line.gone(1);
    expect(granted).to.deep.equal(['1.1', '2.1']);
  });

  it('passes the turn on when its lease ends; the late holder’s done then frees no one else’s turn', () => {
    const clock = manualSchedule();
    const line = new TurnLine(60_000, clock.schedule);
    const granted: string[] = [];
    line.ask(1, 1, () => granted.push('1.1'));
    line.ask(2, 1, () => granted.push('2.1'));
    line.ask(3, 1, () => granted.push('3.1'));
    clock.fireAll();
    expect(granted).to.deep.equal(['1.1', '2.1']);
    line.done(1, 1);
    expect(granted).to.deep.equal(['1.1', '2.1']);
    line.done(2, 1);
    expect(granted).to.deep.equal(['1.1', '2.1', '3.1']);
  });
});

/** A fake cluster: workers whose messages the primary hears, and what it sends each of them. */
function fakeCluster() {
  const workers = new EventEmitter() as Workers;
  const inbox = new Map<number, TurnMessage[]>();
  const worker = (id: number) => ({
    id,
    send: (message: TurnMessage) => inbox.set(id, [...(inbox.get(id) ?? []), message]),
  });
  return { workers, inbox, worker };
}

describe('serveWriteTurns (the primary over IPC)', () => {
  it('answers asks with go in order, and a worker’s exit while it holds the turn hands it to the next', () => {
    const { workers, inbox, worker } = fakeCluster();
    serveWriteTurns(workers, 60_000);
    const [a, b] = [worker(1), worker(2)];
    workers.emit('message', a, { writeTurn: 'ask', id: 7 });
    workers.emit('message', b, { writeTurn: 'ask', id: 3 });
    workers.emit('message', b, { other: 'counter message' });
    expect(inbox.get(1)).to.deep.equal([{ writeTurn: 'go', id: 7 }]);
    expect(inbox.get(2)).to.equal(undefined);
    workers.emit('exit', a);
    expect(inbox.get(2)).to.deep.equal([{ writeTurn: 'go', id: 3 }]);
  });
});

/** Workers' channels wired to one TurnLine, as the primary would be: each message delivered on a later tick. */
function fakePrimary() {
  const line = new TurnLine(60_000, manualSchedule().schedule);
  let owners = 0;
  /** The asks each owner has sent. */
  const asks = new Map<number, number>();
  /** Says 'ask' each time an ask has reached the line. */
  const heard = new EventEmitter();
  const channel = (): TurnChannel => {
    const owner = ++owners;
    const events = new EventEmitter();
    return {
      send: (message) =>
        setImmediate(() => {
          if (message.writeTurn === 'ask') asks.set(owner, (asks.get(owner) ?? 0) + 1);
          if (message.writeTurn === 'ask')
            line.ask(owner, message.id, () =>
              setImmediate(() => events.emit('message', { writeTurn: 'go', id: message.id })),
            );
          else line.done(owner, message.id);
          if (message.writeTurn === 'ask') heard.emit('ask');
        }),
      on: (event, listener) => events.on(event, listener),
    };
  };
  /** Resolves once `owner`'s first ask is in the line (at once if it is). */
  const asked = (owner: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!asks.get(owner)) return;
        heard.off('ask', check);
        resolve();
      };
      heard.on('ask', check);
      check();
    });
  return { line, channel, asks, asked };
}

describe('TurnGate (a worker’s writer line)', () => {
  it('lets the write transactions of two processes through one at a time, none refused', async () => {
    const primary = fakePrimary();
    const gates = [
      new TurnGate(new TurnClient(60_000, primary.channel())),
      new TurnGate(new TurnClient(60_000, primary.channel())),
    ];
    let inside = 0;
    let most = 0;
    const done: number[] = [];
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const gate = gates[i % 2]!;
        await gate.enter();
        inside++;
        most = Math.max(most, inside);
        await new Promise((resolve) => setImmediate(resolve));
        inside--;
        done.push(i);
        gate.leave();
      }),
    );
    expect(done).to.have.length(40);
    expect(most).to.equal(1);
  });

  it('refuses as a busy store (503) a wait for the turn past its timeout, and leaves the line', async () => {
    const primary = fakePrimary();
    const holder = new TurnGate(new TurnClient(60_000, primary.channel()));
    const waiter = new TurnGate(new TurnClient(20, primary.channel()));
    await holder.enter();
    const refused = await waiter.enter().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(unavailableDetail(refused)).to.equal(STORE_BUSY);
    // The waiter's own line is free again, and its given-up ask no longer stands between the holder and the next.
    holder.leave();
    const third = new TurnGate(new TurnClient(60_000, primary.channel()));
    await third.enter();
    third.leave();
  });

  it('passes the turn straight to its own next writer, TURN_BURST writes at most, then to the other process', async () => {
    const primary = primary2();
    const [a, b] = [primary.gate(), primary.gate()];
    const order: string[] = [];
    const write = async (gate: TurnGate, name: string) => {
      await gate.enter();
      order.push(name);
      await new Promise((resolve) => setImmediate(resolve));
      gate.leave();
    };
    await a.enter();
    // A's writers queue behind its holder, and B asks meanwhile: B's ask waits in the primary's line.
    const writes = Array.from({ length: TURN_BURST + 2 }, (_, i) => write(a, `a${i + 1}`));
    const other = write(b, 'b');
    await primary.asked(2);
    a.leave();
    await Promise.all([...writes, other]);
    const aBurst = Array.from({ length: TURN_BURST - 1 }, (_, i) => `a${i + 1}`);
    expect(order).to.deep.equal([...aBurst, 'b', `a${TURN_BURST}`, `a${TURN_BURST + 1}`, `a${TURN_BURST + 2}`]);
    // One ask for the first burst, one for the rest: not one per write.
    expect(primary.asks.get(1)).to.equal(2);
  });

  it('lets a writer-thread group through its line without asking for the turn, while the other process holds it', async () => {
    const primary = primary2();
    const [a, b] = [primary.gate(), primary.gate()];
    await a.enter();
    await primary.asked(1);
    // B's group on its writer thread, which takes the file's lock itself (src/store/sqlite/take-lock.ts).
    const through = b.enter(false, undefined, false).then(() => 'through');
    expect(await Promise.race([through, primary.asked(2).then(() => 'asked')])).to.equal('through');
    b.leave();
    // Then B's own Sequelize write asks, and waits for A.
    let granted = false;
    const write = b.enter().then(() => (granted = true));
    await primary.asked(2);
    expect(granted).to.equal(false);
    a.leave();
    await write;
    b.leave();
    expect(primary.asks.get(2)).to.equal(1);
  });
});

/** Two gates on one fake primary. */
function primary2() {
  const primary = fakePrimary();
  return {
    asks: primary.asks,
    asked: primary.asked,
    gate: () => new TurnGate(new TurnClient(60_000, primary.channel())),
  };
}
