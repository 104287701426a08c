// Gate: first come, first served, urgent ones ahead in their requests' order of arrival, but never two in a row past one
// waiting; one whose stop aborts leaves the line, never to go through.
import { expect } from 'chai';
import { arrived } from '../../../src/store/arrival';
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

  it('lets urgent ones ahead, but a steady stream of them never more than one at a time past the others', async () => {
    const gate = new Gate(1);
    await gate.enter();
    const order: string[] = [];
    const enter = (name: string, urgent: boolean) => gate.enter(urgent).then(() => order.push(name));
    const entered = [enter('r1', false), enter('r2', false), enter('u1', true), enter('u2', true), enter('u3', true)];
    for (let i = 0; i < entered.length; i++) {
      gate.leave();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(entered);
    expect(order).to.deep.equal(['u1', 'r1', 'u2', 'r2', 'u3']);
  });

  it("serves urgent ones in their requests' order of arrival: a request's second lookup goes ahead of later requests' first", async () => {
    const gate = new Gate(1);
    await gate.enter();
    const order: string[] = [];
    const enter = (name: string) => gate.enter(true).then(() => order.push(name));
    let secondLookup!: () => void;
    // The older request has had its first lookup (a session row without its user) and is about to ask for its second.
    const older = arrived(async () => {
      await new Promise<void>((resolve) => (secondLookup = resolve));
      await enter('older');
    });
    const newer = [arrived(() => enter('newer 1')), arrived(() => enter('newer 2'))];
    secondLookup();
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 3; i++) {
      gate.leave();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all([older, ...newer]);
    expect(order).to.deep.equal(['older', 'newer 1', 'newer 2']);
  });

  it('serves an urgent one outside any request after the requests already there, never behind those that come later', async () => {
    const gate = new Gate(1);
    await gate.enter();
    const order: string[] = [];
    const enter = (name: string) => gate.enter(true).then(() => order.push(name));
    const earlier = arrived(() => enter('earlier'));
    const outside = enter('outside'); // a lookup of no request: a command's, a background task's
    const later = [arrived(() => enter('later 1')), arrived(() => enter('later 2'))];
    for (let i = 0; i < 4; i++) {
      gate.leave();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all([earlier, outside, ...later]);
    expect(order).to.deep.equal(['earlier', 'outside', 'later 1', 'later 2']);
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
