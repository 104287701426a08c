// supertest against createApp(): an app per configuration, and Basic credentials for the test users.
import type { Express } from 'express';
import supertest from 'supertest';
import { createApp } from '../../server/app';
import { testConfig } from './config';
import { PASSWORDS } from './db';

const apps = new Map<string, Express>();

/** The app for a configuration (cached: building one is not free). */
export function app(overrides: Record<string, string> = {}): Express {
  const key = JSON.stringify(overrides);
  let built = apps.get(key);
  if (!built) apps.set(key, (built = createApp(testConfig(overrides))));
  return built;
}

export function api(overrides: Record<string, string> = {}) {
  return supertest(app(overrides));
}

export function basic(username: string, password = PASSWORDS[username] ?? ''): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}
