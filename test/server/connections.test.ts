// The HTTP server as served (server/connections.ts): a client that half-closes after its request gets its answer, and
// a body declared over the limit is refused before "100 Continue" invites it.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { drainingServer } from '../../server/connections';
import { BODY_LIMIT } from '../../server/http/body';
import { createClient } from '../../src/auth/oauth2';
import { select } from '../../src/store/select';
import { makeUser, resetDatabase } from '../support/db';
import { app, basic } from '../support/http';
import { suiteLogger, suiteLogRecords } from '../support/log';
import { connect, parseAnswer, within } from '../support/raw-http';
import { testStore } from '../support/runtime';

const snippetCount = async () =>
  Number((await select<{ n: number }>(testStore(), 'SELECT COUNT(*) AS n FROM snippets', []))[0]!.n);
const accessRecord = (reqId: string) => suiteLogRecords().find((r) => r.reqId === reqId && 'status' in r);

describe('the HTTP server (server/connections.ts)', () => {
  let server: Server;
  let base: string;
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    server = drainingServer(app(), { socketMs: 60_000 }, suiteLogger).server;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  describe('a client that half-closes its connection after a complete request (TCP allows it, RFC 9293 §3.6.1)', () => {
    it('gets its 201 every time, and the access log records the 201', async () => {
      const ROUNDS = 30;
      const answers: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const conn = await connect(base);
        const body = JSON.stringify({ code: `half-closed ${i}` });
        conn.socket.end(
          `POST /snippets/ HTTP/1.1\r\nHost: test\r\nConnection: close\r\nAuthorization: ${basic('alice')}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
        const raw = await within(30_000, `half-closed create ${i}`, conn.closed);
        const answer = raw ? parseAnswer(raw) : undefined;
        answers.push(answer?.status ?? 0);
        if (answer)
          expect(accessRecord(answer.headers['x-request-id']!), `create ${i}`).to.include({
            status: 201,
            method: 'POST',
            path: '/snippets/',
          });
      }
      // Every snippet stored was answered: as many 201s as snippets, and every create both.
      expect(answers).to.deep.equal(Array(ROUNDS).fill(201));
      expect(await snippetCount()).to.equal(ROUNDS);
    });
  });

  describe('a half-closed request of another kind', () => {
    /** Sends `head` and `body` and half-closes; the answer. */
    async function halfClosed(head: string, body: Buffer, authorization = basic('alice')) {
      const conn = await connect(base);
      const auth = authorization ? `Authorization: ${authorization}\r\n` : '';
      conn.socket.end(
        Buffer.concat([Buffer.from(`${head}Connection: close\r\n${auth}Content-Length: ${body.length}\r\n\r\n`), body]),
      );
      return parseAnswer(await within(30_000, 'the answer', conn.closed));
    }

    it('a gzip-encoded body (decoded as body-parser decodes it) and a /trpc create are answered too', async () => {
      const gzipped = await halfClosed(
        'POST /snippets/ HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n',
        gzipSync(JSON.stringify({ code: 'zipped' })),
      );
      expect(gzipped.status).to.equal(201);
      expect(JSON.parse(gzipped.body).code).to.equal('zipped');
      const trpc = await halfClosed(
        'POST /trpc/snippets.create HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n',
        Buffer.from(JSON.stringify({ code: 'over trpc' })),
      );
      expect(trpc.status).to.equal(200);
      expect(await snippetCount()).to.equal(2);
    });

    it('a password grant at the OAuth 2.0 token endpoint (its own body parsers) is answered with its token', async () => {
      await createClient(testStore(), 'app', 'half-client', 'half-client-secret');
      const form =
        'grant_type=password&username=alice&password=alicepass&client_id=half-client&client_secret=half-client-secret';
      const grant = await halfClosed(
        'POST /oauth2/access_token/ HTTP/1.1\r\nHost: test\r\nContent-Type: application/x-www-form-urlencoded\r\n',
        Buffer.from(form),
        '',
      );
      expect(grant.status).to.equal(200);
      expect(JSON.parse(grant.body)).to.have.property('access_token').that.is.a('string');
    });
  });

  describe('Expect: 100-continue (RFC 9110 §10.1.1)', () => {
    for (const path of ['/snippets/', '/trpc/snippets.create']) {
      it(`a declared body over the limit gets its 413 at once, without "100 Continue", and the connection closes (${path})`, async () => {
        const conn = await connect(base);
        conn.socket.write(
          `POST ${path} HTTP/1.1\r\nHost: test\r\nAuthorization: ${basic('alice')}\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${95 * 1024 * 1024}\r\nExpect: 100-continue\r\n\r\n`,
        );
        const raw = await within(30_000, 'the 413', conn.closed);
        expect(raw).to.match(/^HTTP\/1\.1 413 /);
        expect(raw).not.to.include('100 Continue');
        const body = JSON.parse(parseAnswer(raw).body);
        if (path === '/snippets/') expect(body).to.deep.equal({ detail: 'Request body is too large.' });
        else expect(body.error.data).to.include({ code: 'PAYLOAD_TOO_LARGE', httpStatus: 413 });
        expect(await snippetCount()).to.equal(0);
      });
    }

    it('a body within the limit is invited with "100 Continue" and saved', async () => {
      const conn = await connect(base);
      const body = JSON.stringify({ code: 'x'.repeat(1000) });
      expect(Buffer.byteLength(body)).to.be.below(BODY_LIMIT);
      conn.socket.write(
        `POST /snippets/ HTTP/1.1\r\nHost: test\r\nConnection: close\r\nAuthorization: ${basic('alice')}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
      );
      await within(30_000, '100 Continue', conn.waitFor(/^HTTP\/1\.1 100 Continue\r\n\r\n/));
      conn.socket.write(body);
      expect(parseAnswer(await within(30_000, 'the 201', conn.closed)).status).to.equal(201);
    });
  });
});
