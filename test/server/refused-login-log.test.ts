// A refused password attempt, whichever way the password came, is one warn record with the username's keyed digest only.
import { createHash, createHmac } from 'node:crypto';
import { expect } from 'chai';
import supertest from 'supertest';
import { usernameDigest } from '../../server/auth/refusal-log';
import { createClient } from '../../src/auth/oauth2';
import { makeUser, resetDatabase } from '../support/db';
import { api, app, basic } from '../support/http';
import { suiteLogRecords } from '../support/log';
import { csrfFrom } from '../support/pages';
import { testRuntime, testStore } from '../support/runtime';

const CONFIG = { THROTTLE_LOGIN: '4/minute' };
/**
 * What docs/operations.md "Logs" tells an operator to compute:
 * `printf 'refused-login:%s' alice | openssl dgst -sha256 -hmac "$SECRET_KEY" -r | cut -c1-16`.
 */
const ALICE = () =>
  createHmac('sha256', testRuntime().config.SECRET_KEY!).update('refused-login:alice').digest('hex').slice(0, 16);
/** The unkeyed digest the log held before: anyone could test guesses against it (a password typed as the username). */
const UNKEYED = createHash('sha256').update('alice').digest('hex').slice(0, 16);

/** The records of a request that are not its access record. */
const recordsOf = (res: { headers: Record<string, string> }) =>
  suiteLogRecords().filter((r) => r.reqId === res.headers['x-request-id'] && !('status' in r));

describe('refused password attempts in the log', () => {
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    await createClient(testStore(), 'app', 'log-client', 'log-client-secret');
  });

  it('a wrong password by Basic, the login page, /api-token-auth/ and the password grant, then a throttled one: warn, digest, no username', async () => {
    const refused = [
      await api(CONFIG)
        .post('/snippets/')
        .set('Authorization', basic('alice', 'wrong-password-1'))
        .send({ code: 'x' })
        .expect(401),
      await (async () => {
        const agent = supertest.agent(app(CONFIG));
        const csrf = csrfFrom((await agent.get('/api-auth/login/').expect(200)).text);
        return agent
          .post('/api-auth/login/')
          .type('form')
          .send({ username: 'Alice', password: 'wrong-password-2', csrfmiddlewaretoken: csrf })
          .expect(200);
      })(),
      await api(CONFIG).post('/api-token-auth/').send({ username: 'alice', password: 'wrong-password-3' }).expect(400),
      await api(CONFIG)
        .post('/oauth2/access_token/')
        .type('form')
        .send({
          grant_type: 'password',
          username: 'alice',
          password: 'wrong-password-4',
          client_id: 'log-client',
          client_secret: 'log-client-secret',
        })
        .expect(400),
    ];
    const throttled = await api(CONFIG)
      .post('/snippets/')
      .set('Authorization', basic('alice'))
      .send({ code: 'x' })
      .expect(429);

    for (const [i, res] of refused.entries()) {
      expect(recordsOf(res), `attempt ${i}`).to.have.length(1);
      expect(recordsOf(res)[0]).to.include({
        level: 'warn',
        refused: 'password',
        user: ALICE(),
        msg: 'login refused: wrong username or password',
      });
    }
    expect(recordsOf(throttled)).to.have.length(1);
    expect(recordsOf(throttled)[0]).to.include({
      level: 'warn',
      refused: 'throttled',
      user: ALICE(),
      msg: 'login refused: throttled',
    });
    for (const res of [...refused, throttled]) {
      const record = JSON.stringify(recordsOf(res)[0]).toLowerCase();
      expect(record).not.to.include('alice');
      expect(record, 'no unkeyed digest').not.to.include(UNKEYED);
      expect(record).not.to.include(createHash('sha256').update('alice').digest('hex'));
    }
  });

  it('the digest is keyed: the same for a username under one key, another under another key, never the plain SHA-256', () => {
    const [one, other] = ['k'.repeat(40), 'K'.repeat(40)];
    expect(usernameDigest(one, 'Alice'))
      .to.equal(usernameDigest(one, 'alice'))
      .and.match(/^[0-9a-f]{16}$/);
    expect(usernameDigest(other, 'alice')).not.to.equal(usernameDigest(one, 'alice'));
    expect(usernameDigest(one, 'alice')).not.to.equal(UNKEYED);
  });

  it('a good password logs no warn record', async () => {
    // bob: the throttle's counters outlive the database reset, and alice is throttled by now.
    await makeUser('bob');
    const res = await api(CONFIG).post('/snippets/').set('Authorization', basic('bob')).send({ code: 'x' }).expect(201);
    expect(
      suiteLogRecords().filter((r) => r.reqId === res.headers['x-request-id'] && r.level === 'warn'),
    ).to.have.length(0);
  });
});
