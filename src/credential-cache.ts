// Verified username/password pairs, kept briefly so that Basic auth pays PBKDF2 once, not on every request.
import { createHmac, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';

const TTL_MS = 60_000;

export interface VerifiedEntry {
  userId: number;
  /** The stored hash when the pair was verified: a different one now means the password changed. */
  passwordHash: string;
}

/** One per runtime; only successful checks are ever remembered. */
export class CredentialCache {
  /** A key made per cache: it never holds a password, nor anything that could be checked offline. */
  private readonly secret = randomBytes(32);
  private readonly verified = new LRUCache<string, VerifiedEntry>({ max: 10_000, ttl: TTL_MS });

  key(username: string, password: string): string {
    return createHmac('sha256', this.secret).update(username).update('\0').update(password).digest('base64url');
  }

  remember(key: string, entry: VerifiedEntry): void {
    this.verified.set(key, entry);
  }

  /** The entry, if the pair was verified within the TTL. */
  recall(key: string): VerifiedEntry | undefined {
    return this.verified.get(key);
  }

  forget(key: string): void {
    this.verified.delete(key);
  }
}
