// Malformed Authorization headers and CSRF tokens: always a 4xx (or anonymous), never a 500.
import { expect } from 'chai';
import { createClient } from '../../src/auth/oauth2';
import { makeUser, resetDatabase } from '../support/db';
import { api } from '../support/http';
import { testStore } from '../support/runtime';

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

const HEADERS = [
  '',
  ' ',
  'Basic',
  'Basic ',
  'Basic !!!!',
  `Basic ${b64('no-colon')}`,
  `Basic ${b64(Buffer.from([0xff, 0xfe, 0x3a, 0xc3]))}`,
  `Basic ${b64(':')}`,
  'Basic a b',
  `Basic ${'A'.repeat(6000)}`,
  'Token',
  'Token a b c',
  `Token ${'x'.repeat(6000)}`,
  'Token \u00ff\u00fe',
  'Bearer',
  'Bearer a b',
  `Bearer ${'y'.repeat(6000)}`,
  'Bearer %00',
  'OAuth',
  'OAuth oauth_consumer_key="',
  'Digest username="x"',
  'basic',
  'BASIC Zm9vOmJhcg==',
  '\u00e9\u00e9',
];

describe('malformed credentials', () => {
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  for (const order of ['basic,session,token,oauth2', 'session,token,oauth2,basic']) {
    it(`any Authorization header on GET and POST /snippets/ and /trpc answers 200 or a JSON 4xx, never 500 (AUTH_SCHEMES=${order})`, async () => {
      for (const header of HEADERS) {
        for (const [method, path] of [
          ['get', '/snippets/'],
          ['post', '/snippets/'],
          ['get', '/trpc/snippets.list'],
          ['get', '/users/1/'],
        ] as const) {
          const res = await api({ AUTH_SCHEMES: order })[method](path).set('Authorization', header).send({ code: 'x' });
          expect(res.status, `${method} ${path} "${header.slice(0, 40)}"`).to.be.oneOf([200, 401, 403, 404]);
          expect(res.headers['content-type'], header).to.match(/^application\/json/);
          if (res.status === 401) expect(res.headers['www-authenticate'], header).to.be.a('string');
          if (res.status === 403) expect(res.headers, header).not.to.have.property('www-authenticate');
        }
      }
      expect((await api().get('/snippets/').expect(200)).body).to.deep.equal([]);
    });
  }

  // REDIS_URL unset puts the password-guessing counters in the database's store (MySQL's table on MariaDB).
  for (const [store, overrides] of [
    ['the configured counter store', {}],
    ['the database counter store', { REDIS_URL: '' }],
  ] as const) {
    it(`300-character and non-BMP usernames in Basic, at the token endpoint and in the OAuth 2.0 password grant answer 4xx, never 500 (${store})`, async () => {
      const config = {
        ...overrides,
        THROTTLE_LOGIN: '10/minute',
        THROTTLE_ANON: '1000/second',
        THROTTLE_USER: '1000/second',
      };
      await createClient(testStore(), 'malformed', 'malformed-client', 'malformed-secret');
      for (const username of ['u'.repeat(300), '\u{1F600}', `${'\u{1F600}'.repeat(200)}x`, 'Ä'.repeat(255)]) {
        const basic = await api(config)
          .get('/snippets/')
          .set('Authorization', `Basic ${b64(`${username}:x`)}`);
        expect(basic.status, username).to.equal(401);
        expect(basic.body).to.deep.equal({ detail: 'Invalid username/password.' });
        const token = await api(config).post('/api-token-auth/').send({ username, password: 'x' });
        expect(token.status, username).to.equal(400);
        const grant = {
          grant_type: 'password',
          username,
          password: 'x',
          client_id: 'malformed-client',
          client_secret: 'malformed-secret',
        };
        const oauth = await api(config).post('/oauth2/access_token/').type('form').send(grant);
        expect(oauth.status, username).to.equal(400);
        expect(oauth.body).to.include({ error: 'invalid_grant' });
      }
    });
  }

  it('odd X-CSRFToken values on an anonymous or Basic request never matter, and never 500', async () => {
    for (const token of ['', 'x', '\u00ff', 'a'.repeat(10000), '%00', '../../']) {
      await api().post('/snippets/').set('X-CSRFToken', token).send({ code: 'x' }).expect(401);
    }
  });

  it('an OAuth 2.0 token request with a broken Basic client header answers invalid_client 401, never 500', async () => {
    for (const header of [
      'Basic',
      'Basic !!!',
      `Basic ${b64('%E0%A4%A:%')}`,
      `Basic ${b64('no-colon')}`,
      'Basic a b',
    ]) {
      const res = await api()
        .post('/oauth2/access_token/')
        .set('Authorization', header)
        .type('form')
        .send({ grant_type: 'password', username: 'alice', password: 'alicepass' });
      expect(res.status, header).to.equal(401);
      expect(res.body.error).to.equal('invalid_client');
    }
  });
});
