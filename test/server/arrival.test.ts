// Every request runs in its place of arrival (src/store/arrival.ts), from the app's first middleware on: its statements
// (the lookup of who sent it, then its read) carry that place to the readers' line (src/store/gate.ts).
import { expect } from 'chai';
import { arrival } from '../../src/store/arrival';
import { makeUser, resetDatabase } from '../support/db';
import { readsDuring } from '../support/engine';
import { login } from '../support/http';
import { testStore } from '../support/runtime';

describe("a request's place of arrival", () => {
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  it("is the one place of a session-cookie request's lookup and read, and a later request's is later", async () => {
    const { agent } = await login();
    const placesDuring = async (work: () => Promise<unknown>) => {
      const places: number[] = [];
      await readsDuring(testStore(), () => places.push(arrival()), work);
      return places;
    };
    const first = await placesDuring(() => agent.get('/snippets/').expect(200));
    const second = await placesDuring(() => agent.get('/snippets/').expect(200));
    expect(first).to.have.length(2); // the session with its user, the list
    expect(first[0]).to.be.finite.and.equal(first[1]);
    expect(second).to.have.length(2);
    expect(second[0]).to.equal(second[1]).and.be.above(first[0]!);
  });
});
