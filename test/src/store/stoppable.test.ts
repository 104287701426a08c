// A statement's stop and the line it waits in (src/store/cancellation.ts stoppable, src/store/gate.ts): a statement
// that got through the line and is stopped later, while it runs, leaves the line as it found it. Engine-free: the
// "connection" is a place in a Gate of one, and the statement runs until it is halted.
import { expect } from 'chai';
import { stoppable } from '../../../src/store/cancellation';
import { Gate } from '../../../src/store/gate';

/** A statement on a line of `gate`: it takes a place, runs until halted (or at once when `quick`), and gives it back. */
function statement(gate: Gate, ms: number, quick = false): Promise<string> {
  let halted: (() => void) | undefined;
  return stoppable(ms, {
    take: async (stop) => {
      await gate.enter(false, stop);
      return 'place';
    },
    run: () =>
      quick
        ? Promise.resolve('ran')
        : new Promise<string>((_resolve, reject) => (halted = () => reject(new Error('halted')))),
    halt: () => halted?.(),
    give: () => gate.leave(),
  });
}

describe('a statement stopped after its wait in line', function () {
  this.timeout(5000);

  it('takes no other statement out of the line: the one behind it runs', async () => {
    const gate = new Gate(1);
    await gate.enter(); // the place is held: the next statements wait in line
    const first = statement(gate, 50).catch((err: Error & { code?: string }) => err.code);
    const second = statement(gate, 60_000, true);
    gate.leave(); // the first goes through, and runs until its deadline stops it
    expect(await first).to.equal('ETIMEDOUT');
    // Had the first statement's listener stayed on its stop, the deadline would have taken the second out of the line
    // (Gate.enter's leaveLine), and it would wait the whole minute.
    expect(await second).to.equal('ran');
  });
});
