// A worker's throttle counter at the cluster's primary (src/store/counters.ts ClusterCounter): a primary too busy to
// answer in time costs precision, never an error, since the error would answer the request 500.
import { expect } from 'chai';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { ClusterCounter } from '../../../src/store/counters';

describe('a worker’s counter when the primary does not answer', () => {
  // The worker's channel to a primary that never answers: what the counter sends goes nowhere.
  let send: typeof process.send;
  beforeEach(() => {
    send = process.send;
    process.send = (() => true) as typeof process.send;
  });
  afterEach(() => {
    process.send = send;
  });

  it('counts in this process instead: the points are granted, then refused with the wait, as the primary would', async () => {
    const counter = new ClusterCounter({ points: 2, duration: 60, keyPrefix: 'no-answer' }, 10);
    await counter.consume('client');
    expect((await counter.get('client'))?.consumedPoints).to.equal(1);
    await counter.consume('client');
    const refused: unknown = await counter.consume('client').catch((res: unknown) => res);
    expect(refused).to.be.instanceOf(RateLimiterRes);
    expect((refused as RateLimiterRes).msBeforeNext).to.be.above(0);
  });
});
