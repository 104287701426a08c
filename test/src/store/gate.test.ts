// Gate: first come, first served, urgent ones ahead; one whose stop aborts leaves the line, never to go through.
import { expect } from 'chai';
import { Gate } from '../../../src/store/gate';

describe('Gate', () => {
  it('a waiter whose stop aborts is refused with its reason, and the place goes to the next in line', async () => {
    const gate = new Gate(1);
    await gate.enter();
    const stop = new AbortController();
    const gone = gate.enter(false, stop.signal).then(
      () => 'through',
      (e: Error) => e.message,
    );
    const next = gate.enter().then(() => 'through');
    stop.abort(new Error('gone'));
    expect(await gone).to.equal('gone');
    gate.leave();
    expect(await next).to.equal('through');
    // The abandoned waiter took no place: the gate is free again after the next leaves.
    gate.leave();
    await gate.enter();
  });

  it('a stop already aborted is refused at once, even with room', async () => {
    const stop = new AbortController();
    stop.abort(new Error('gone'));
    expect(
      await new Gate(1).enter(false, stop.signal).then(
        () => 'through',
        (e: Error) => e.message,
      ),
    ).to.equal('gone');
  });
});
