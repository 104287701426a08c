// Every request runs in its place of arrival (src/store/arrival.ts), from the app's first middleware on: the lookups of
// who sent it (a session, its user) carry that place to the readers' line (src/store/gate.ts), which serves them in it.
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

  /** The places of arrival the urgent reads (the lookups) had while `work` ran. */
  async function lookupsDuring(work: () => Promise<unknown>): Promise<number[]> {
    const engine = testStore().engine;
    const select = engine.select.bind(engine);
    const places: number[] = [];
    engine.select = (sql, params, kind, urgent) => {
      if (urgent) places.push(arrival());
      return select(sql, params, kind, urgent);
    };
    try {
      await work();
      return places;
    } finally {
      engine.select = select;
    }
  }

  it("is the one place of both of a session-cookie request's lookups, and a later request's is later", async () => {
    const agent = supertest.agent(app());
    const form = await agent.get('/api-auth/login/').expect(200);
    await agent
      .post('/api-auth/login/')
      .type('form')
      .send({ username: 'alice', password: 'alicepass', csrfmiddlewaretoken: csrfFrom(form.text), next: '/snippets/' })
      .expect(302);
    const first = await lookupsDuring(() => agent.get('/snippets/').expect(200));
    const second = await lookupsDuring(() => agent.get('/snippets/').expect(200));
    expect(first).to.have.length(2); // the session, its user
    expect(first[0]).to.be.finite.and.equal(first[1]);
    expect(second).to.have.length(2);
    expect(second[0]).to.equal(second[1]).and.be.above(first[0]!);
  });
});
