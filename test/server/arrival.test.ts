// Every request runs in its place of arrival (src/store/arrival.ts), from the app's first middleware on: its statements
// (the lookup of who sent it, then its read) carry that place to the readers' line (src/store/gate.ts).
import { expect } from 'chai';
import supertest from 'supertest';
import { arrival } from '../../src/store/arrival';
import { makeUser, resetDatabase } from '../support/db';
import { app } from '../support/http';
import { csrfFrom } from '../support/pages';
import { testStore } from '../support/runtime';

describe("a request's place of arrival", () => {
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  /** The places of arrival the reads had while `work` ran. */
  async function readsDuring(work: () => Promise<unknown>): Promise<number[]> {
    const engine = testStore().engine;
    const select = engine.select.bind(engine);
    const places: number[] = [];
    engine.select = (sql, params, kind, urgent) => {
      places.push(arrival());
      return select(sql, params, kind, urgent);
    };
    try {
      await work();
      return places;
    } finally {
      engine.select = select;
    }
  }

  it("is the one place of a session-cookie request's lookup and read, and a later request's is later", async () => {
    const agent = supertest.agent(app());
    const form = await agent.get('/api-auth/login/').expect(200);
    await agent
      .post('/api-auth/login/')
      .type('form')
      .send({ username: 'alice', password: 'alicepass', csrfmiddlewaretoken: csrfFrom(form.text), next: '/snippets/' })
      .expect(302);
    const first = await readsDuring(() => agent.get('/snippets/').expect(200));
    const second = await readsDuring(() => agent.get('/snippets/').expect(200));
    expect(first).to.have.length(2); // the session with its user, the list
    expect(first[0]).to.be.finite.and.equal(first[1]);
    expect(second).to.have.length(2);
    expect(second[0]).to.equal(second[1]).and.be.above(first[0]!);
  });
});
