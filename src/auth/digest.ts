// Secrets at rest: random keys, their SHA-256 digests for lookup, and constant-time comparison.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 160 bits or more, as hex (Token keys, 40 characters as DRF's) or base64url (OAuth tokens). */
export function randomKey(bytes = 20, encoding: 'hex' | 'base64url' = 'hex'): string {
  return randomBytes(bytes).toString(encoding);
}

export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Compares two strings without leaking where they differ (their digests have equal length). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
