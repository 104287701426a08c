// supertest against createApp(): an app per configuration and test, and Basic credentials for the test users.
import type { RequestListener } from 'node:http';
import supertest from 'supertest';
import { createApp } from '../../server/app';
import { PASSWORDS } from './db';
import { noting } from './log';
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
