// Malformed Authorization headers and CSRF tokens: always a 4xx (or anonymous), never a 500.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { api } from '../support/http';

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
        for (const [method, path] of [['get', '/snippets/'], ['post', '/snippets/'], ['get', '/trpc/snippets.list'], ['get', '/users/1/']] as const) {
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

  it('odd X-CSRFToken values on an anonymous or Basic request never matter, and never 500', async () => {
    for (const token of ['', 'x', '\u00ff', 'a'.repeat(10000), '%00', '../../']) {
      await api().post('/snippets/').set('X-CSRFToken', token).send({ code: 'x' }).expect(401);
    }
  });

  it('an OAuth 2.0 token request with a broken Basic client header answers invalid_client 401, never 500', async () => {
    for (const header of ['Basic', 'Basic !!!', `Basic ${b64('%E0%A4%A:%')}`, `Basic ${b64('no-colon')}`, 'Basic a b']) {
      const res = await api().post('/oauth2/access_token/').set('Authorization', header).type('form').send({ grant_type: 'password', username: 'alice', password: 'alicepass' });
      expect(res.status, header).to.equal(401);
      expect(res.body.error).to.equal('invalid_client');
    }
  });
});
