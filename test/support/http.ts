// supertest against createApp(): an app per configuration and test, Basic credentials for the test users, and a
// session logged in through the form.
import http, { type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { createApp } from '../../server/app';
import { PASSWORDS } from './db';
import { noting } from './log';
import { csrfFrom } from './pages';
import { runtimeWith, testApp } from './runtime';

/** The test's app for a configuration (support/runtime.ts), logging into the suite's log (support/log.ts). */
export function app(overrides: Record<string, string> = {}): RequestListener {
  return noting(testApp(overrides));
}

export function api(overrides: Record<string, string> = {}) {
  return supertest(app(overrides));
}

/** An app of its own whose clock reads `now()` (token expiry, OAuth 1.0a timestamps): time passes without waiting. */
export function apiAt(now: () => number, overrides: Record<string, string> = {}) {
  return supertest(noting(createApp(runtimeWith(overrides, now))));
}

export function basic(username: string, password = PASSWORDS[username] ?? ''): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/** The answer's body of a snippet `username` creates (POST /snippets/ with Basic credentials, 201 expected). */
export async function createSnippet(
  username: string,
  fields: Record<string, unknown>,
): Promise<{ id: number } & Record<string, unknown>> {
  return (await api().post('/snippets/').set('Authorization', basic(username)).send(fields).expect(201)).body;
}

export interface Listening {
  base: string;
  close(): Promise<void>;
}

/** The test's app listening on a free loopback port, for a client that needs a URL (the typed client, a spawned script). */
export async function listening(): Promise<Listening> {
  const server = http.createServer(app());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Logs alice in through the form; returns the agent and the CSRF token of the new session. */
export async function login(
  agent = supertest.agent(app()),
): Promise<{ agent: ReturnType<typeof supertest.agent>; csrf: string }> {
  const form = await agent.get('/api-auth/login/').expect(200);
  await agent
    .post('/api-auth/login/')
    .type('form')
    .send({ username: 'alice', password: 'alicepass', csrfmiddlewaretoken: csrfFrom(form.text), next: '/snippets/' })
    .expect(302);
  const page = await agent.get('/snippets/').set('Accept', 'text/html').expect(200);
  return { agent, csrf: csrfFrom(page.text) };
}
