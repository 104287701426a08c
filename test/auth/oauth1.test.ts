// OAuth 1.0a: requests signed by an independent library (oauth-1.0a) against the app on a real port, and the CLI that makes credentials.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import OAuth from 'oauth-1.0a';
import supertest from 'supertest';
import { createConsumer, createToken, pruneNonces, useNonce } from '../../src/auth/oauth1';
import { select } from '../../src/store/select';
import { makeUser, resetDatabase } from '../support/db';
import { api, app, basic } from '../support/http';
import { cliInProcess } from '../support/cli';
import { sameDatabase, serviceInProcess } from '../support/in-process';
import { serviceEnv } from '../support/process';
import { testStore } from '../support/runtime';

const CHALLENGE = 'OAuth realm="api"';

interface Creds {
  consumer: OAuth.Consumer;
  token: OAuth.Token;
}

/** The Authorization header oauth-1.0a (HMAC-SHA1 by node:crypto) makes for the request. */
function sign(
  method: string,
  url: string,
  creds: Creds,
  opts: { data?: Record<string, string>; timestamp?: number; nonce?: string } = {},
): string {
  const oauth = new OAuth({
    consumer: creds.consumer,
    signature_method: 'HMAC-SHA1',
    realm: 'api',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
  if (opts.timestamp !== undefined) oauth.getTimeStamp = () => opts.timestamp!;
  if (opts.nonce !== undefined) oauth.getNonce = () => opts.nonce!;
  return oauth.toHeader(oauth.authorize({ method, url, data: opts.data }, creds.token)).Authorization;
}

/** The app for a configuration, listening on an ephemeral port of 127.0.0.1: signatures need the URL the server sees. */
function listen(overrides: Record<string, string>): Promise<{ server: Server; base: string }> {
  return new Promise((resolve) => {
    const server = createServer(app(overrides)).listen(0, '127.0.0.1', () =>
      resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    );
  });
}

async function snippetCount(): Promise<number> {
  const [row] = await select<{ n: number }>(testStore(), 'SELECT COUNT(*) AS n FROM snippets');
  return Number(row!.n);
}

describe('OAuth 1.0a authentication', () => {
  const servers: Server[] = [];
  let first: { server: Server; base: string };
  let alice: Creds;
  let bob: Creds;

  before(async () => {
    first = await listen({ AUTH_SCHEMES: 'oauth1,basic' });
    servers.push(first.server);
  });
  after(() => servers.forEach((s) => s.close()));

  beforeEach(async () => {
    await resetDatabase();
    const aliceUser = await makeUser('alice');
    const bobUser = await makeUser('bob');
    const consumer = await createConsumer(testStore(), 'test client');
    const other = await createConsumer(testStore(), 'other client');
    alice = {
      consumer: { key: consumer.key, secret: consumer.secret },
      token: (await createToken(testStore(), aliceUser, consumer.key))!,
    };
    bob = {
      consumer: { key: other.key, secret: other.secret },
      token: (await createToken(testStore(), bobUser, other.key))!,
    };
  });

  const oauth1 = () => supertest(first.server);

  describe('AUTH_SCHEMES=oauth1,basic: GET /snippets/', () => {
    it('signed with the token answers 200, with query parameters in the signature', async () => {
      await oauth1().post('/snippets/').set('Authorization', basic('alice')).send({ code: 'x' }).expect(201);
      const url = `${first.base}/snippets/?limit=5&note=a~b%21c%20d`;
      const res = await oauth1()
        .get('/snippets/?limit=5&note=a~b%21c%20d')
        .set('Authorization', sign('GET', url, alice))
        .expect(200);
      expect(res.body).to.have.length(1);
    });

    it('with a wrong token secret answers 401 "Invalid signature." with WWW-Authenticate: OAuth realm="api"', async () => {
      const wrong = { ...alice, token: { ...alice.token, secret: 'not-the-secret' } };
      const res = await oauth1()
        .get('/snippets/')
        .set('Authorization', sign('GET', `${first.base}/snippets/`, wrong))
        .expect(401);
      expect(res.body).to.deep.equal({ detail: 'Invalid signature.' });
      expect(res.headers['www-authenticate']).to.equal(CHALLENGE);
    });

    it('signed for another path, method or query answers 401 "Invalid signature."', async () => {
      for (const [method, url] of [
        ['GET', '/users/'],
        ['POST', '/snippets/'],
        ['GET', '/snippets/?limit=1'],
      ]) {
        const res = await oauth1()
          .get('/snippets/')
          .set('Authorization', sign(method!, `${first.base}${url}`, alice))
          .expect(401);
        expect(res.body).to.deep.equal({ detail: 'Invalid signature.' });
      }
    });

    it('replayed exactly answers 401 "Nonce already used."', async () => {
      const header = sign('GET', `${first.base}/snippets/`, alice);
      await oauth1().get('/snippets/').set('Authorization', header).expect(200);
      const res = await oauth1().get('/snippets/').set('Authorization', header).expect(401);
      expect(res.body).to.deep.equal({ detail: 'Nonce already used.' });
      expect(res.headers['www-authenticate']).to.equal(CHALLENGE);
      // The same nonce from another consumer is that consumer's own.
      await oauth1()
        .get('/snippets/')
        .set(
          'Authorization',
          sign('GET', `${first.base}/snippets/`, bob, { nonce: /oauth_nonce="([^"]+)"/.exec(header)![1] }),
        )
        .expect(200);
    });

    it('with a timestamp more than 300 s away, past or future, answers 401 "Timestamp out of range."', async () => {
      const now = Math.floor(Date.now() / 1000);
      for (const timestamp of [now - 301 - 5, now + 301 + 5, 0]) {
        const res = await oauth1()
          .get('/snippets/')
          .set('Authorization', sign('GET', `${first.base}/snippets/`, alice, { timestamp }))
          .expect(401);
        expect(res.body).to.deep.equal({ detail: 'Timestamp out of range.' });
      }
      await oauth1()
        .get('/snippets/')
        .set('Authorization', sign('GET', `${first.base}/snippets/`, alice, { timestamp: now - 200 }))
        .expect(200);
    });

    it("with an unknown consumer, an unknown token or another consumer's token answers 401", async () => {
      const cases: [Creds, string][] = [
        [{ ...alice, consumer: { key: 'nobody', secret: alice.consumer.secret } }, 'Invalid consumer key.'],
        [{ ...alice, token: { key: 'no-such-token', secret: alice.token.secret } }, 'Invalid access token.'],
        [{ ...alice, token: bob.token }, 'Invalid access token.'],
      ];
      for (const [creds, detail] of cases) {
        const res = await oauth1()
          .get('/snippets/')
          .set('Authorization', sign('GET', `${first.base}/snippets/`, creds))
          .expect(401);
        expect(res.body).to.deep.equal({ detail });
        expect(res.headers['www-authenticate']).to.equal(CHALLENGE);
      }
    });

    it('without an OAuth header falls through to Basic, or is anonymous', async () => {
      await oauth1().get('/snippets/').set('Authorization', basic('alice')).expect(200);
      await oauth1().get('/snippets/').expect(200);
    });
  });

  describe('AUTH_SCHEMES=oauth1,basic: POST /snippets/', () => {
    it("signed with a JSON body creates the snippet, 201, owned by the token's user", async () => {
      const res = await oauth1()
        .post('/snippets/')
        .set('Authorization', sign('POST', `${first.base}/snippets/`, alice))
        .send({ code: 'print(1)' })
        .expect(201);
      expect(res.body).to.include({ owner: 'alice', code: 'print(1)' });
    });

    it('signed with a form body whose fields are in the signature creates the snippet, 201', async () => {
      const data = { code: 'print("a b~c*!\'()")', title: 'héllo ✓ & = +', linenos: 'true' };
      const res = await oauth1()
        .post('/snippets/')
        .type('form')
        .set('Authorization', sign('POST', `${first.base}/snippets/`, bob, { data }))
        .send(data)
        .expect(201);
      expect(res.body).to.include({ owner: 'bob', code: data.code, title: data.title, linenos: true });
    });

    it('with a form body changed after signing answers 401 "Invalid signature." and stores nothing', async () => {
      const header = sign('POST', `${first.base}/snippets/`, alice, { data: { code: 'signed' } });
      const res = await oauth1()
        .post('/snippets/')
        .type('form')
        .set('Authorization', header)
        .send({ code: 'tampered' })
        .expect(401);
      expect(res.body).to.deep.equal({ detail: 'Invalid signature.' });
      expect(await snippetCount()).to.equal(0);
    });

    it('with a wrong consumer secret answers 401 with WWW-Authenticate: OAuth realm="api" and stores nothing', async () => {
      const wrong = { ...alice, consumer: { ...alice.consumer, secret: 'wrong-secret' } };
      const res = await oauth1()
        .post('/snippets/')
        .set('Authorization', sign('POST', `${first.base}/snippets/`, wrong))
        .send({ code: 'x' })
        .expect(401);
      expect(res.body).to.deep.equal({ detail: 'Invalid signature.' });
      expect(res.headers['www-authenticate']).to.equal(CHALLENGE);
      expect(await snippetCount()).to.equal(0);
    });

    it('replayed exactly answers 401 "Nonce already used." and stores the snippet once', async () => {
      const header = sign('POST', `${first.base}/snippets/`, alice);
      await oauth1().post('/snippets/').set('Authorization', header).send({ code: 'once' }).expect(201);
      const res = await oauth1().post('/snippets/').set('Authorization', header).send({ code: 'once' }).expect(401);
      expect(res.body).to.deep.equal({ detail: 'Nonce already used.' });
      expect(await snippetCount()).to.equal(1);
    });

    it('without credentials answers 401 with WWW-Authenticate: OAuth realm="api"', async () => {
      const res = await oauth1().post('/snippets/').send({ code: 'x' }).expect(401);
      expect(res.body).to.deep.equal({ detail: 'Authentication credentials were not provided.' });
      expect(res.headers['www-authenticate']).to.equal(CHALLENGE);
    });
  });

  describe('AUTH_SCHEMES=oauth1,basic: malformed Authorization: OAuth headers', () => {
    function valid(): Map<string, string> {
      const header = sign('GET', `${first.base}/snippets/`, alice);
      return new Map([...header.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    }
    const render = (params: Map<string, string>) => `OAuth ${[...params].map(([k, v]) => `${k}="${v}"`).join(', ')}`;
    const without = (name: string) => {
      const p = valid();
      p.delete(name);
      return render(p);
    };
    const withValue = (name: string, value: string) => {
      const p = valid();
      p.set(name, value);
      return render(p);
    };

    it('answer 401 with a detail and the OAuth challenge, never 500, on GET and POST', async () => {
      const MALFORMED = 'Invalid OAuth header.';
      const BAD_ENCODING = 'Invalid OAuth header. Bad percent-encoding.';
      const cases: [string, string][] = [
        ['OAuth', 'Invalid OAuth header. No credentials provided.'],
        ['OAuth   ', 'Invalid OAuth header. No credentials provided.'],
        ...[
          'oauth garbage',
          'OAuth oauth_token=unquoted',
          'OAuth oauth_token="unterminated',
          'OAuth ,,,',
          'OAuth oauth_token="a" oauth_nonce="b"',
          'OAuth "="',
          'OAuth a=="b"',
        ].map((h): [string, string] => [h, MALFORMED]),
        [`OAuth realm="${'a'.repeat(8000)}"`, MALFORMED],
        [`OAuth ${'a="b", '.repeat(1000)}a="b"`, MALFORMED],
        ['OAuth realm="api"', 'Missing OAuth parameter: oauth_consumer_key.'],
        [`${render(valid())}, oauth_nonce="again"`, 'Invalid OAuth header. Duplicate parameter oauth_nonce.'],
        [withValue('oauth_consumer_key', '%zz'), BAD_ENCODING],
        [withValue('oauth_nonce', '%E0%A4%A'), BAD_ENCODING],
        [withValue('oauth_signature', '%'), BAD_ENCODING],
        ...[
          'oauth_consumer_key',
          'oauth_token',
          'oauth_signature_method',
          'oauth_timestamp',
          'oauth_nonce',
          'oauth_signature',
        ].map((name): [string, string] => [without(name), `Missing OAuth parameter: ${name}.`]),
        [withValue('oauth_signature', ''), 'Missing OAuth parameter: oauth_signature.'],
        [withValue('oauth_signature_method', 'PLAINTEXT'), 'Unsupported signature method.'],
        [withValue('oauth_signature_method', 'RSA-SHA1'), 'Unsupported signature method.'],
        [withValue('oauth_version', '2.0'), 'Unsupported OAuth version.'],
        ...['abc', '-5', '1e9', '9'.repeat(30)].map((t): [string, string] => [
          withValue('oauth_timestamp', t),
          'Invalid timestamp.',
        ]),
        [withValue('oauth_nonce', 'n'.repeat(65)), 'Invalid nonce.'],
        [withValue('oauth_consumer_key', '%27%3B%20DROP%20TABLE%20users%3B--'), 'Invalid consumer key.'],
        [withValue('oauth_consumer_key', '%00'), 'Invalid consumer key.'],
        [withValue('oauth_token', 'x'.repeat(200)), 'Invalid access token.'],
        [withValue('oauth_token', '%F0%9F%98%80'), 'Invalid access token.'],
        [withValue('oauth_signature', 'AAAA'), 'Invalid signature.'],
      ];
      for (const [header, detail] of cases) {
        for (const method of ['get', 'post'] as const) {
          const res = await oauth1()[method]('/snippets/').set('Authorization', header).send({ code: 'x' });
          expect([res.status, res.body.detail], header.slice(0, 120)).to.deep.equal([401, detail]);
          expect(res.headers['www-authenticate']).to.equal(CHALLENGE);
        }
      }
      expect(await snippetCount()).to.equal(0);
    });
  });

  describe('other AUTH_SCHEMES', () => {
    it('by default (no oauth1) a signed OAuth header is not attempted, as other unknown schemes: GET anonymous, POST 401 Basic', async () => {
      const plain = await listen({});
      servers.push(plain.server);
      for (const header of [sign('GET', `${plain.base}/snippets/`, alice), 'Frobnicate whatever']) {
        await supertest(plain.server).get('/snippets/').set('Authorization', header).expect(200);
      }
      for (const header of [sign('POST', `${plain.base}/snippets/`, alice), 'Frobnicate whatever']) {
        const res = await supertest(plain.server)
          .post('/snippets/')
          .set('Authorization', header)
          .send({ code: 'x' })
          .expect(401);
        expect(res.body).to.deep.equal({ detail: 'Authentication credentials were not provided.' });
        expect(res.headers['www-authenticate']).to.equal('Basic realm="api"');
      }
      expect(await snippetCount()).to.equal(0);
    });

    it('with basic first, a wrong signature answers 401 with the Basic challenge; a good one authenticates', async () => {
      const second = await listen({ AUTH_SCHEMES: 'basic,oauth1' });
      servers.push(second.server);
      const wrong = { ...alice, token: { ...alice.token, secret: 'wrong' } };
      const res = await supertest(second.server)
        .post('/snippets/')
        .set('Authorization', sign('POST', `${second.base}/snippets/`, wrong))
        .send({ code: 'x' })
        .expect(401);
      expect(res.body).to.deep.equal({ detail: 'Invalid signature.' });
      expect(res.headers['www-authenticate']).to.equal('Basic realm="api"');
      await supertest(second.server)
        .post('/snippets/')
        .set('Authorization', sign('POST', `${second.base}/snippets/`, alice))
        .send({ code: 'x' })
        .expect(201);
    });

    it('with TRUST_PROXY the signed URL is the one the proxy received (X-Forwarded-Proto and -Host)', async () => {
      const proxied = { AUTH_SCHEMES: 'oauth1', TRUST_PROXY: '1' };
      const header = sign('POST', 'https://api.example.com/snippets/', alice);
      await api(proxied)
        .post('/snippets/')
        .set('X-Forwarded-Proto', 'https')
        .set('X-Forwarded-Host', 'api.example.com')
        .set('Authorization', header)
        .send({ code: 'x' })
        .expect(201);
      const other = sign('POST', 'https://api.example.com/snippets/', alice);
      await api(proxied).post('/snippets/').set('Authorization', other).send({ code: 'x' }).expect(401);
    });
  });

  describe('the nonce log', () => {
    it('keeps nonces inside the timestamp window and prunes older ones', async () => {
      const now = Math.floor(Date.now() / 1000);
      expect(await useNonce(testStore(), 'k', 't', now - 1000, 'old')).to.equal(true);
      expect(await useNonce(testStore(), 'k', 't', now, 'new')).to.equal(true);
      expect(await useNonce(testStore(), 'k', 't', now, 'new')).to.equal(false);
      await pruneNonces(testStore(), Date.now(), true);
      expect(
        (await select<{ nonce: string }>(testStore(), 'SELECT nonce FROM oauth1_nonces')).map((r) => r.nonce),
      ).to.deep.equal(['new']);
    });
  });
});

describe('snippets CLI: createconsumer and createoauth1token', function () {
  this.timeout(600_000);
  let env: NodeJS.ProcessEnv;

  async function cli(...args: string[]) {
    const res = await cliInProcess(env, ...args);
    return {
      ...res,
      values: Object.fromEntries(
        res.stdout
          .trim()
          .split('\n')
          .map((l) => l.split('=', 2)),
      ) as Record<string, string>,
    };
  }

  before(() => {
    env = serviceEnv({ AUTH_SCHEMES: 'oauth1' });
  });

  it('make credentials that a signed request to the service authenticates with', async () => {
    expect((await cli('createuser', 'carol', '--password', 'carolpass')).code).to.equal(0);
    const consumer = await cli('createconsumer', 'my app', '--key', 'my-app.key', '--secret', 'consumer-secret-1');
    expect(consumer).to.include({ code: 0 });
    expect(consumer.values).to.deep.equal({ consumer_key: 'my-app.key', consumer_secret: 'consumer-secret-1' });
    const generated = await cli('createconsumer', 'generated');
    expect(generated.values.consumer_key).to.match(/^[\w-]{27}$/);
    expect(generated.values.consumer_secret).to.match(/^[\w-]{40}$/);
    const token = await cli('createoauth1token', 'carol', '--consumer', 'my-app.key');
    expect(token).to.include({ code: 0 });
    expect(token.values.oauth_token).to.match(/^[\w-]{27}$/);
    expect(token.values.oauth_token_secret).to.match(/^[\w-]{40}$/);

    // The service on the database the commands wrote, in this process: what it is given is the point, not its process.
    const service = await serviceInProcess({ ...sameDatabase(env), AUTH_SCHEMES: 'oauth1' });
    try {
      const creds = {
        consumer: { key: 'my-app.key', secret: 'consumer-secret-1' },
        token: { key: token.values.oauth_token!, secret: token.values.oauth_token_secret! },
      };
      const url = `${service.base}/snippets/`;
      const res = await fetch(url, {
        method: 'POST',
        headers: { Authorization: sign('POST', url, creds), 'Content-Type': 'application/json' },
        body: JSON.stringify({ code: 'via cli' }),
      });
      expect(res.status).to.equal(201);
      expect(await res.json()).to.include({ owner: 'carol', code: 'via cli' });
      const anonymous = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"code":"x"}',
      });
      expect(anonymous.status).to.equal(401);
      expect(anonymous.headers.get('www-authenticate')).to.equal(CHALLENGE);
    } finally {
      await service.close();
    }
  });

  it('exit 1 with one line on an unknown user or consumer or a duplicate key', async () => {
    const cases: [string[], RegExp][] = [
      [['createoauth1token', 'nobody', '--consumer', 'my-app.key'], /^User "nobody" does not exist\.$/],
      [['createoauth1token', 'carol', '--consumer', 'nope'], /^Consumer "nope" does not exist\.$/],
      [['createconsumer', 'again', '--key', 'my-app.key'], /^A consumer with that key already exists: my-app\.key$/],
    ];
    for (const [args, message] of cases) {
      const res = await cli(...args);
      expect(res.code, args.join(' ')).to.equal(1);
      expect(res.stderr.trim().split('\n'), args.join(' ')).to.have.length(1);
      expect(res.stderr.trim()).to.match(message);
    }
  });

  it('exit 2 with the reason and the usage on a wrong command line (no --consumer, a bad key or secret)', async () => {
    const cases: [string[], RegExp][] = [
      [['createoauth1token', 'carol'], /^snippets createoauth1token: .*--consumer/],
      [['createconsumer', 'bad', '--key', 'has space'], /^snippets createconsumer: --key must be/],
      [['createconsumer', 'bad', '--secret', 'short'], /^snippets createconsumer: --secret must be/],
    ];
    for (const [args, message] of cases) {
      const res = await cli(...args);
      expect(res.code, args.join(' ')).to.equal(2);
      const lines = res.stderr.trim().split('\n');
      expect(lines, args.join(' ')).to.have.length(2);
      expect(lines[0]).to.match(message);
      expect(lines[1]).to.match(new RegExp(`^usage: snippets ${args[0]} `));
    }
  });
});
