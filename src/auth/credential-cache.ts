// Verified username/password pairs, kept briefly so that Basic auth pays PBKDF2 once, not on every request.
import { createHmac, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** A key made per process: the cache never holds a password, nor anything that could be checked offline. */
const PROCESS_KEY = randomBytes(32);
const TTL_MS = 60_000;

interface Entry {
  userId: number;
  /** The stored hash when the pair was verified: a different one now means the password changed. */
  passwordHash: string;
}

const verified = new LRUCache<string, Entry>({ max: 10_000, ttl: TTL_MS });

export function credentialKey(username: string, password: string): string {
  return createHmac('sha256', PROCESS_KEY).update(username).update('\0').update(password).digest('base64url');
}

export function rememberVerified(key: string, entry: Entry): void {
  verified.set(key, entry);
}

/** The entry, if the pair was verified within the TTL; only successful checks are ever remembered. */
export function recallVerified(key: string): Entry | undefined {
  return verified.get(key);
}

export function forget(key: string): void {
  verified.delete(key);
}
