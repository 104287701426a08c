// Throttling: THROTTLE_ANON per address, THROTTLE_USER per user, THROTTLE_LOGIN on password checks.
import { expect } from 'chai';
import supertest from 'supertest';
import { createClient } from '../../src/auth/oauth2';
import { makeUser, resetDatabase } from '../support/db';
import { api, app, basic } from '../support/http';
import { csrfFrom } from '../support/pages';

function expectThrottled(res: supertest.Response): void {
  expect(res.status).to.equal(429);
  const wait = Number(res.headers['retry-after']);
  expect(wait).to.be.within(1, 60);
  expect(res.body).to.deep.equal({ detail: `Request was throttled. Expected available in ${wait} seconds.`, wait });
}

describe('throttling', () => {
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    await makeUser('bob');
  });

  it('THROTTLE_ANON refuses the next anonymous request from the address with 429, Retry-After and wait', async () => {
    const config = { THROTTLE_ANON: '3/minute', THROTTLE_USER: '100/minute' };
    for (let i = 0; i < 3; i++) await api(config).get('/snippets/').expect(200);
    expectThrottled(await api(config).get('/snippets/'));
    // Authenticated requests count against the user's rate, not the address's.
    await api(config).get('/snippets/').set('Authorization', basic('alice')).expect(200);
  });

  it('THROTTLE_USER counts per user, whatever the address', async () => {
    const config = { THROTTLE_USER: '2/minute' };
    await api(config).get('/users/').set('Authorization', basic('alice')).expect(200);
    await api(config).post('/snippets/').set('Authorization', basic('alice')).send({ code: 'x' }).expect(201);
    expectThrottled(await api(config).post('/snippets/').set('Authorization', basic('alice')).send({ code: 'y' }));
    await api(config).get('/users/').set('Authorization', basic('bob')).expect(200);
    expect((await api().get('/snippets/').expect(200)).body).to.have.length(1);
  });

  it('TRUST_PROXY decides whether X-Forwarded-For names the address', async () => {
    const trusted = { THROTTLE_ANON: '1/minute', TRUST_PROXY: 'true' };
    await api(trusted).get('/users/').set('X-Forwarded-For', '203.0.113.1').expect(200);
    await api(trusted).get('/users/').set('X-Forwarded-For', '203.0.113.2').expect(200);
    expectThrottled(await api(trusted).get('/users/').set('X-Forwarded-For', '203.0.113.1'));
    const untrusted = { THROTTLE_ANON: '1/minute', TRUST_PROXY: 'false' };
    await api(untrusted).get('/users/').set('X-Forwarded-For', '203.0.113.1').expect(200);
    expectThrottled(await api(untrusted).get('/users/').set('X-Forwarded-For', '203.0.113.2'));
  });

  // Each test below uses its own usernames and addresses: in-memory counters outlive resetDatabase().
  describe('THROTTLE_LOGIN against password guessing', () => {
    const config = { THROTTLE_LOGIN: '2/minute', TRUST_PROXY: 'true' };

    const tokenAuth = (ip: string, username: string, password: string) =>
      api(config).post('/api-token-auth/').set('X-Forwarded-For', ip).send({ username, password });

    it('POST /api-token-auth/ is refused 429 after the limit for the (username, address) pair, even with the right password', async () => {
      for (let i = 0; i < 2; i++) await tokenAuth('198.51.100.1', 'alice', 'wrong').expect(400);
      expectThrottled(await tokenAuth('198.51.100.1', 'alice', 'alicepass'));
      // Refused attempts count nothing: the owner, from another address, is not locked out.
      for (let i = 0; i < 5; i++) expectThrottled(await tokenAuth('198.51.100.1', 'alice', 'wrong'));
      await tokenAuth('198.51.100.2', 'alice', 'alicepass').expect(200);
    });

    it('POST /api-token-auth/ is refused 429 after five times the limit for the address, whatever the username', async () => {
      for (let i = 0; i < 10; i++) await tokenAuth('198.51.100.9', `u${i}`, 'x').expect(400);
      expectThrottled(await tokenAuth('198.51.100.9', 'bob', 'bobpass'));
      await tokenAuth('198.51.100.10', 'bob', 'bobpass').expect(200);
    });

    it('POST /api-token-auth/ is refused 429 after twenty times the limit for the username, over every address', async () => {
      await makeUser('heidi');
      for (let i = 0; i < 20; i++) for (let j = 0; j < 2; j++) await tokenAuth(`198.51.101.${i}`, 'heidi', 'wrong').expect(400);
      expectThrottled(await tokenAuth('198.51.101.200', 'heidi', 'heidipass'));
    });

    it('the owner, from a new address, still logs in while someone else fails 100 times a minute with the username', async () => {
      const defaults = { THROTTLE_LOGIN: '10/minute', TRUST_PROXY: 'true' };
      await makeUser('ivan');
      // Ten addresses, each at its pair limit; every way of sending a password counts.
      const failures = Array.from({ length: 100 }, (_, i) => {
        const ip = `198.51.102.${i % 10}`;
        const request = api(defaults);
        if (i % 3 === 0) return request.post('/api-token-auth/').set('X-Forwarded-For', ip).send({ username: 'ivan', password: `guess${i}` }).expect(400);
        if (i % 3 === 1) return request.get('/users/').set('X-Forwarded-For', ip).set('Authorization', basic('ivan', `guess${i}`)).expect(401);
        return request.post('/api-token-auth/').set('X-Forwarded-For', ip).type('form').send({ username: 'IVAN', password: `guess${i}` }).expect(400);
      });
      await Promise.all(failures);
      expectThrottled(await api(defaults).post('/api-token-auth/').set('X-Forwarded-For', '198.51.102.0').send({ username: 'ivan', password: 'ivanpass' }));
      await api(defaults).post('/api-token-auth/').set('X-Forwarded-For', '198.51.102.77').send({ username: 'ivan', password: 'ivanpass' }).expect(200);
      await api(defaults).get('/users/').set('X-Forwarded-For', '198.51.102.78').set('Authorization', basic('ivan', 'ivanpass')).expect(200);
    });

    it('the OAuth 2.0 password grant is limited the same way', async () => {
      await createClient('c', 'throttle-client', 'throttle-client-secret');
      await makeUser('carol');
      const grant = { grant_type: 'password', username: 'carol', password: 'wrong', client_id: 'throttle-client', client_secret: 'throttle-client-secret' };
      for (let i = 0; i < 2; i++) await api(config).post('/oauth2/access_token/').set('X-Forwarded-For', '198.51.100.20').type('form').send(grant).expect(400);
      const res = await api(config).post('/oauth2/access_token/').set('X-Forwarded-For', '198.51.100.20').type('form').send({ ...grant, password: 'carolpass' }).expect(429);
      const wait = Number(res.headers['retry-after']);
      expect(res.body).to.deep.equal({ error: 'slow_down', error_description: `Request was throttled. Expected available in ${wait} seconds.`, detail: `Request was throttled. Expected available in ${wait} seconds.`, wait });
    });

    it('failed Basic checks count: past the limit even the right password is refused 429, before any check', async () => {
      await makeUser('erin');
      const erin = { Authorization: basic('erin', 'erinpass') };
      await api(config).post('/snippets/').set('X-Forwarded-For', '198.51.100.40').set(erin).send({ code: 'ok' }).expect(201);
      for (let i = 0; i < 2; i++) {
        await api(config).get('/snippets/').set('X-Forwarded-For', '198.51.100.41').set('Authorization', basic('erin', `guess${i}`)).expect(401);
      }
      const refused = await api(config).get('/snippets/').set('X-Forwarded-For', '198.51.100.41').set('Authorization', basic('erin', 'guess3'));
      expectThrottled(refused);
      await makeUser('gina');
      // Basic and the token endpoint count together.
      await api(config).get('/snippets/').set('X-Forwarded-For', '198.51.100.44').set('Authorization', basic('gina', 'guess')).expect(401);
      await tokenAuth('198.51.100.44', 'gina', 'guess').expect(400);
      expectThrottled(await api(config).post('/snippets/').set('X-Forwarded-For', '198.51.100.44').set('Authorization', basic('gina', 'ginapass')).send({ code: 'x' }));
      // A pair verified moments ago is no guess: the owner's client keeps working.
      await api(config).post('/snippets/').set('X-Forwarded-For', '198.51.100.40').set(erin).send({ code: 'still ok' }).expect(201);
    });

    it('successful Basic requests do not count', async () => {
      await makeUser('frank');
      for (let i = 0; i < 5; i++) await api(config).get('/users/').set('X-Forwarded-For', '198.51.100.50').set('Authorization', basic('frank', 'frankpass')).expect(200);
    });

    it('the login page is limited the same way', async () => {
      await makeUser('dave');
      const agent = supertest.agent(app(config));
      const form = await agent.get('/api-auth/login/').expect(200);
      const csrf = csrfFrom(form.text);
      for (let i = 0; i < 2; i++) await agent.post('/api-auth/login/').set('X-Forwarded-For', '198.51.100.30').type('form').send({ username: 'dave', password: 'wrong', csrfmiddlewaretoken: csrf }).expect(200);
      const res = await agent.post('/api-auth/login/').set('X-Forwarded-For', '198.51.100.30').type('form').send({ username: 'dave', password: 'davepass', csrfmiddlewaretoken: csrf }).expect(429);
      expect(Number(res.headers['retry-after'])).to.be.within(1, 60);
    });
  });
});
