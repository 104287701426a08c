// OAuth 1.0a state: consumers and tokens made by the CLI (secrets kept as-is: HMAC needs them), and the nonce log against replays.
import type { Store } from '../store/database';
import {
  consumerByKey,
  deleteNoncesBefore,
  insertConsumer,
  insertNonce,
  insertOAuth1Token,
  oauth1TokenOf,
} from '../store/oauth1';
import { randomKey, safeEqual } from './digest';
import type { AuthUser } from './users';

/** How far a request's oauth_timestamp may be from the server's clock, in seconds, either way. */
export const TIMESTAMP_WINDOW_SECONDS = 300;

/** Keys travel in every request; they are limited to RFC 3986 unreserved characters so no client encodes them differently. */
export const KEY_PATTERN = /^[A-Za-z0-9._~-]{1,64}$/;
export const SECRET_LENGTH = { min: 8, max: 128 } as const;

export interface Credentials {
  user: AuthUser;
  consumerSecret: string;
  tokenSecret: string;
}

export async function createConsumer(
  store: Store,
  name: string,
  key = randomKey(20, 'base64url'),
  secret = randomKey(30, 'base64url'),
): Promise<{ key: string; secret: string }> {
  await insertConsumer(store, name, key, secret);
  return { key, secret };
}

/** A new token of this consumer for the user; null when the consumer key is unknown. */
export async function createToken(
  store: Store,
  user: AuthUser,
  consumerKey: string,
): Promise<{ key: string; secret: string } | null> {
  const consumer = await consumerByKey(store, consumerKey);
  if (!consumer) return null;
  const key = randomKey(20, 'base64url');
  const secret = randomKey(30, 'base64url');
  await insertOAuth1Token(store, { consumerId: consumer.id, userId: user.id, key, secret });
  return { key, secret };
}

/** The secrets to verify a signature with and the token's user; which part is unknown otherwise. */
export async function credentialsFor(
  store: Store,
  consumerKey: string,
  tokenKey: string,
): Promise<Credentials | 'consumer' | 'token'> {
  const consumer = await consumerByKey(store, consumerKey);
  // The exact comparison guards against a case-insensitive collation on a MySQL database created without utf8mb4_bin.
  if (!consumer || !safeEqual(consumer.consumer_key, consumerKey)) return 'consumer';
  const token = await oauth1TokenOf(store, consumer.id, tokenKey);
  if (!token || !safeEqual(token.token_key, tokenKey)) return 'token';
  return {
    user: { id: token.user_id, username: token.username },
    consumerSecret: consumer.consumer_secret,
    tokenSecret: token.token_secret,
  };
}

/** When each store's nonces were last pruned (a runtime's store; none is shared). */
const lastPrune = new WeakMap<Store, number>();

/** Records a nonce; false when this consumer already used it with this timestamp (a replay). */
export async function useNonce(
  store: Store,
  consumerKey: string,
  token: string,
  timestamp: number,
  nonce: string,
): Promise<boolean> {
  await pruneNonces(store);
  return insertNonce(store, { consumerKey, token, timestamp, nonce });
}

/** Drops nonces whose timestamp the window already refuses, at most once a minute per store. */
export async function pruneNonces(store: Store, now = Date.now(), force = false): Promise<void> {
  if (!force && now - (lastPrune.get(store) ?? 0) < 60_000) return;
  lastPrune.set(store, now);
  const oldest = Math.floor(now / 1000) - TIMESTAMP_WINDOW_SECONDS - 1;
  await deleteNoncesBefore(store, oldest);
}
