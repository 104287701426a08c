// supertest against createApp(): an app per configuration, and Basic credentials for the test users.
import type { RequestListener } from 'node:http';
import supertest from 'supertest';
import { createApp } from '../../server/app';
import { testConfig } from './config';
import { PASSWORDS } from './db';
import { noting, suiteLogger } from './log';

const apps = new Map<string, RequestListener>();

/** The app for a configuration (cached: building one is not free), logging into the suite's log (support/log.ts). */
export function app(overrides: Record<string, string> = {}): RequestListener {
  const key = JSON.stringify(overrides);
  let built = apps.get(key);
  if (!built) apps.set(key, (built = noting(createApp(testConfig(overrides), suiteLogger))));
  return built;
}

export function api(overrides: Record<string, string> = {}) {
  return supertest(app(overrides));
}

/** An app of its own whose clock reads `now()` (token expiry, OAuth 1.0a timestamps): time passes without waiting. */
export function apiAt(now: () => number, overrides: Record<string, string> = {}) {
  return supertest(noting(createApp(testConfig(overrides), suiteLogger, { now })));
}

export function basic(username: string, password = PASSWORDS[username] ?? ''): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}
