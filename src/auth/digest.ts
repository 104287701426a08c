// Secrets at rest: random keys, their SHA-256 digests for lookup, keyed digests, and constant-time comparison.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** 160 bits or more, as hex (Token keys, 40 characters as DRF's) or base64url (OAuth tokens). */
export function randomKey(bytes = 20, encoding: 'hex' | 'base64url' = 'hex'): string {
  return randomBytes(bytes).toString(encoding);
}

export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** HMAC-SHA256 of `value` under `key`, as hex: a digest no one without the key can compute, nor test guesses against. */
export function hmacSha256(key: string, value: string): string {
  return createHmac('sha256', key).update(value, 'utf8').digest('hex');
}

/** Compares two strings without leaking where they differ (their digests have equal length). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
