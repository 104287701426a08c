// The SECRET_KEY a service uses when none is configured: generated once and kept under ./data/, never a constant in code.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DATA_DIR, type Config } from '../config';

/** The configuration with SECRET_KEY set: the configured one, else the stored one (created on first use). */
export function withStoredSecretKey<C extends Pick<Config, 'SECRET_KEY'>>(
  config: C,
  dir = DATA_DIR,
): Omit<C, 'SECRET_KEY'> & { SECRET_KEY: string } {
  if (config.SECRET_KEY) return { ...config, SECRET_KEY: config.SECRET_KEY };
  const file = path.join(dir, 'secret_key');
  if (existsSync(file)) return { ...config, SECRET_KEY: readFileSync(file, 'utf8').trim() };
  mkdirSync(dir, { recursive: true });
  const key = randomBytes(48).toString('base64url');
  writeFileSync(file, key, { mode: 0o600 });
  return { ...config, SECRET_KEY: key };
}

/** The key that signs session cookies and CSRF tokens; a service without one is a mistake, said at start-up. */
export function secretKey(config: Pick<Config, 'SECRET_KEY'>): string {
  if (!config.SECRET_KEY)
    throw new Error('SECRET_KEY is not set (the service stores one under ./data/ when it starts without one)');
  return config.SECRET_KEY;
}
