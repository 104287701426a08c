// The access record of a request whose client went away before its answer: 499 ("client closed request", as nginx
// logs it), and what became of its write, known once the service has made the answer no one reads.
import http, { type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { HighlightInput } from '../../src/highlight';
import { select } from '../../src/store/select';
import { makeUser, resetDatabase } from '../support/db';
import { app, basic } from '../support/http';
import { suiteLogRecords } from '../support/log';
import { connect, within } from '../support/raw-http';
import { testRuntime, testStore } from '../support/runtime';

const snippetCount = async () =>
  Number((await select<{ n: number }>(testStore(), 'SELECT COUNT(*) AS n FROM snippets', []))[0]!.n);
const accessRecord = (reqId: string) => suiteLogRecords().find((r) => r.reqId === reqId && 'status' in r);

/** Holds every rendering of `highlighted` (so every save) until released, with its result or an error. */
function holdRendering() {
  const highlighter = testRuntime().highlighter;
  const render = highlighter.render.bind(highlighter);
  let entered!: () => void;
  const started = new Promise<void>((r) => (entered = r));
  let release!: (fail?: Error) => void;
  const released = new Promise<Error | undefined>((r) => (release = r));
  highlighter.render = async (input: HighlightInput) => {
    entered();
    const fail = await released;
    if (fail) throw fail;
    return render(input);
  };
  return { started, release, restore: () => (highlighter.render = render) };
}

describe('the access log (server/access-log.ts)', () => {
  let server: Server;
  let base: string;
  /** The answers of the requests the server received, as they came, and when each one's connection closed. */
  let answers: { res: ServerResponse; closed: Promise<void> }[];
  let held: ReturnType<typeof holdRendering>;
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    answers = [];
    const handler = app();
    server = http.createServer((req, res) => {
      answers.push({ res, closed: new Promise((r) => res.once('close', r)) });
      handler(req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    held = holdRendering();
  });
  afterEach(async () => {
    held.restore();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  /** Sends a create and hangs up while it is being saved; resolves with the request's id once the server saw it go. */
  async function abandonedCreate(): Promise<string> {
    const conn = await connect(base);
    const body = JSON.stringify({ code: 'abandoned' });
    conn.socket.write(
      `POST /snippets/ HTTP/1.1\r\nHost: test\r\nAuthorization: ${basic('alice')}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await within(30_000, 'the save started', held.started);
    conn.socket.destroy();
    const { res, closed } = answers[0]!;
    await within(30_000, 'the server saw the client go', closed);
    return String(res.getHeader('x-request-id'));
  }

  /** The access record once written (it waits for the answer the service makes). */
  async function recordOf(reqId: string) {
    for (let i = 0; i < 600 && !accessRecord(reqId); i++) await new Promise((r) => setTimeout(r, 50));
    return accessRecord(reqId);
  }

  it('a create whose client hung up mid-save, then committed: 499, aborted, its answer 201 and "write: committed"', async () => {
    const reqId = await abandonedCreate();
    expect(accessRecord(reqId), 'no record while the save is still going').to.equal(undefined);
    held.release();
    const record = await recordOf(reqId);
    expect(record).to.include({
      level: 'info',
      method: 'POST',
      path: '/snippets/',
      status: 499,
      aborted: true,
      answer: 201,
      write: 'committed',
    });
    expect(record!.msg).to.equal('POST /snippets/ 499 aborted, write committed');
    expect(await snippetCount()).to.equal(1);
  });

  it('a create whose client hung up, then failed: 499, aborted, its answer 500 and "write: not committed", at error with the fault', async () => {
    const reqId = await abandonedCreate();
    held.release(new Error('rendering failed on purpose'));
    const record = await recordOf(reqId);
    expect(record).to.include({ level: 'error', status: 499, aborted: true, answer: 500, write: 'not committed' });
    expect(JSON.stringify(record!.err)).to.include('rendering failed on purpose');
    expect(await snippetCount()).to.equal(0);
  });

  it('an answered request keeps its one record with the status sent, and no aborted, answer or write field', async () => {
    held.release();
    const conn = await connect(base);
    conn.socket.write(`GET /snippets/ HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n`);
    await within(30_000, 'the answer', conn.closed);
    const reqId = String(answers[0]!.res.getHeader('x-request-id'));
    await answers[0]!.closed;
    const records = suiteLogRecords().filter((r) => r.reqId === reqId && 'status' in r);
    expect(records).to.have.length(1);
    expect(records[0]).to.include({ status: 200, msg: 'GET /snippets/ 200' });
    expect(records[0]).not.to.have.any.keys('aborted', 'answer', 'write');
  });
});
