// `snippets listusers`, in process through the command's run(): each user's name, whether active, how they sign in
// (a usable password, OpenID Connect issuers) and their last session login, which the login page notes on the
// runtime's clock and a script's Basic or Token request does not (migration 0014). Run on both engines.
import { expect } from 'chai';
import supertest from 'supertest';
import { createApp } from '../../../server/app';
import { listusers } from '../../../server/commands/users';
import { linkIdentity, signInIdentity } from '../../../src/auth/identities';
import { tokenFor } from '../../../src/auth/tokens';
import type { Runtime } from '../../../src/runtime';
import { updateActive } from '../../../src/users/store';
import { makeUser, resetDatabase } from '../../support/db';
import { basic } from '../../support/http';
import { noting } from '../../support/log';
import { csrfFrom } from '../../support/pages';
import { runtimeWith, testRuntime } from '../../support/runtime';

const ISSUER = 'https://id.example.com';
const OTHER_ISSUER = 'https://gitlab.example.com';

async function listed(runtime: Runtime = testRuntime()): Promise<string[]> {
  const lines: string[] = [];
  expect(await listusers.run({ args: [], options: {} }, { runtime, out: (line) => lines.push(line) })).to.equal(0);
  return lines;
}

/** Logs in through the login page's form, on an app whose clock is `runtime`'s. */
async function passwordLogin(runtime: Runtime, username: string, password: string): Promise<void> {
  const agent = supertest.agent(noting(createApp(runtime)));
  const form = await agent.get('/api-auth/login/').expect(200);
  await agent
    .post('/api-auth/login/')
    .type('form')
    .send({ username, password, csrfmiddlewaretoken: csrfFrom(form.text), next: '/snippets/' })
    .expect(302);
}

describe('snippets listusers', () => {
  beforeEach(async () => {
    await resetDatabase();
  });

  it('lists nothing when there is no user', async () => {
    expect(await listed()).to.deep.equal([]);
  });

  it('shows each user by username: active or not, password and/or issuers, never logged in', async () => {
    const store = testRuntime().store;
    const bob = await makeUser('bob');
    await makeUser('alice');
    // carol's first OpenID Connect sign-in made her, with no usable password; bob has a password and two identities.
    expect(await signInIdentity(store, { issuer: ISSUER, subject: 'sub-carol', username: 'carol' })).to.have.property(
      'user',
    );
    await linkIdentity(store, bob, OTHER_ISSUER, 'sub-bob');
    await linkIdentity(store, bob, ISSUER, 'sub-bob');
    await updateActive(store, 'alice', false);
    expect(await listed()).to.deep.equal([
      'alice\tinactive\tpassword\tnever',
      `bob\tactive\tpassword ${OTHER_ISSUER} ${ISSUER}\tnever`,
      `carol\tactive\t${ISSUER}\tnever`,
    ]);
  });

  it("notes a password-page login at the runtime's time, and not a Basic or Token request", async () => {
    let now = Date.parse('2026-11-20T10:00:00.123Z');
    const runtime = runtimeWith({}, () => now);
    const alice = await makeUser('alice');
    await makeUser('bob');
    await passwordLogin(runtime, 'alice', 'alicepass');
    expect(await listed()).to.deep.equal([
      'alice\tactive\tpassword\t2026-11-20T10:00:00.123Z',
      'bob\tactive\tpassword\tnever',
    ]);

    now = Date.parse('2026-11-21T08:30:00Z');
    const api = supertest(noting(createApp(runtime)));
    await api.get('/snippets/').set('Authorization', basic('bob')).expect(200);
    await api.post('/snippets/').set('Authorization', basic('alice')).send({ code: 'x' }).expect(201);
    const key = await tokenFor(runtime.store, alice);
    await api.post('/snippets/').set('Authorization', `Token ${key}`).send({ code: 'y' }).expect(201);
    expect(await listed()).to.deep.equal([
      'alice\tactive\tpassword\t2026-11-20T10:00:00.123Z',
      'bob\tactive\tpassword\tnever',
    ]);

    await passwordLogin(runtime, 'bob', 'bobpass');
    await passwordLogin(runtime, 'alice', 'alicepass');
    expect(await listed()).to.deep.equal([
      'alice\tactive\tpassword\t2026-11-21T08:30:00.000Z',
      'bob\tactive\tpassword\t2026-11-21T08:30:00.000Z',
    ]);
  });

  it('does not note a refused login', async () => {
    const runtime = runtimeWith({}, () => Date.parse('2026-11-20T10:00:00Z'));
    await makeUser('alice');
    const agent = supertest.agent(noting(createApp(runtime)));
    const form = await agent.get('/api-auth/login/').expect(200);
    await agent
      .post('/api-auth/login/')
      .type('form')
      .send({ username: 'alice', password: 'wrong', csrfmiddlewaretoken: csrfFrom(form.text) })
      .expect(200);
    expect(await listed()).to.deep.equal(['alice\tactive\tpassword\tnever']);
  });
});
