// OAuth 1.0a rows: consumers and tokens (secrets as they are: HMAC needs them), and the nonce log against replays.
import { QueryTypes } from 'sequelize';
import type { Store } from './database';
import { isDuplicate } from './errors';
import { select } from './select';

export interface ConsumerRow {
  id: number;
  consumer_key: string;
  consumer_secret: string;
}

export interface OAuth1TokenRow {
  token_key: string;
  token_secret: string;
  user_id: number;
  username: string;
}

export async function insertConsumer(store: Store, name: string, key: string, secret: string): Promise<void> {
  await store.sequelize
    .getQueryInterface()
    .bulkInsert('oauth1_consumers', [{ name, consumer_key: key, consumer_secret: secret }]);
}

export async function consumerByKey(store: Store, consumerKey: string): Promise<ConsumerRow | undefined> {
  const [row] = await select<ConsumerRow>(
    store,
    'SELECT id, consumer_key, consumer_secret FROM oauth1_consumers WHERE consumer_key = ?',
    [consumerKey],
  );
  return row;
}

export async function insertOAuth1Token(
  store: Store,
  token: { consumerId: number; userId: number; key: string; secret: string },
): Promise<void> {
  await store.sequelize.getQueryInterface().bulkInsert('oauth1_tokens', [
    {
      consumer_id: token.consumerId,
      user_id: token.userId,
      token_key: token.key,
      token_secret: token.secret,
      created: new Date(),
    },
  ]);
}

export async function oauth1TokenOf(
  store: Store,
  consumerId: number,
  tokenKey: string,
): Promise<OAuth1TokenRow | undefined> {
  const [row] = await select<OAuth1TokenRow>(
    store,
    'SELECT t.token_key, t.token_secret, t.user_id, u.username FROM oauth1_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_key = ? AND t.consumer_id = ? AND u.is_active = 1',
    [tokenKey, consumerId],
  );
  return row;
}

/** Records a nonce; false when it is there already (a replay). */
export async function insertNonce(
  store: Store,
  nonce: { consumerKey: string; token: string; timestamp: number; nonce: string },
): Promise<boolean> {
  try {
    await store.sequelize
      .getQueryInterface()
      .bulkInsert('oauth1_nonces', [
        { consumer_key: nonce.consumerKey, token: nonce.token, timestamp: nonce.timestamp, nonce: nonce.nonce },
      ]);
    return true;
  } catch (err) {
    if (isDuplicate(err)) return false;
    throw err;
  }
}

export async function deleteNoncesBefore(store: Store, timestamp: number): Promise<void> {
  await store.sequelize.query('DELETE FROM oauth1_nonces WHERE `timestamp` < ?', {
    replacements: [timestamp],
    type: QueryTypes.BULKDELETE,
  });
}
