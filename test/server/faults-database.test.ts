// The database stopped, hung (SIGSTOP), missing a table, or its disk full under a running service: 503 with Retry-After
// and a JSON detail within DATABASE_TIMEOUT_MS on every path (REST, pages, /trpc), /readyz 503, never internal text in
// an answer, and recovery without a restart.
import { expect } from 'chai';
import { createConnection } from 'mysql2/promise';
import { basic } from '../support/http';
import { runCli, serviceEnv, startService, stopService, type ServiceProcess } from '../support/process';
import { missing, startMariadb, type OwnServer } from '../support/servers';

/** A hang detector, not a measure: a request still unanswered this long is hanging. */
const HANG_MS = 20_000;
const DOWN = { detail: 'The service is unavailable at the moment; try again shortly.' };

const call = (url: string, init: RequestInit = {}) => fetch(url, { ...init, signal: AbortSignal.timeout(HANG_MS) });

async function readyzBecomes(base: string, status: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await call(`${base}/readyz`);
    if (res.status === status) return;
    if (Date.now() > deadline) throw new Error(`/readyz stayed ${res.status}, expected ${status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('MariaDB stopped, hung or missing a table under a running service', function () {
  this.timeout(600_000);
  let mariadb: OwnServer | undefined;
  let service: ServiceProcess | undefined;
  let token = '';

  before(async function () {
    const reason = missing('mariadbd', 'mariadb-install-db', 'mariadb-admin');
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    mariadb = await startMariadb();
    const env = serviceEnv({ DATABASE_URL: mariadb.url, DATABASE_TIMEOUT_MS: '1000', LOG_LEVEL: 'error' });
    await runCli(env, 'createuser', 'alice', '--password', 'alicepass');
    token = await runCli(env, 'createtoken', 'alice');
    service = await startService(env, { capture: true });
  });
  after(async () => {
    if (service) await stopService(service);
    await mariadb?.close();
  });

  /**
   * Every kind of request answers 503 with Retry-After and the detail, none with the error's own text. The requests go
   * at once: against a hung server each waits out DATABASE_TIMEOUT_MS, and one after another they took 8 s of the file.
   */
  async function expectUnavailable(base: string): Promise<void> {
    const requests: [string, RequestInit][] = [
      ['/snippets/', {}],
      ['/snippets/', { headers: { Authorization: `Token ${token}` } }],
      ['/snippets/', { headers: { Authorization: basic('alice') } }],
      [
        '/snippets/',
        {
          method: 'POST',
          headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json' },
          body: '{"code": "x"}',
        },
      ],
      ['/users/', {}],
    ];
    const [page, trpc, ready, ...answers] = await Promise.all([
      call(`${base}/snippets/`, { headers: { Accept: 'text/html' } }),
      call(`${base}/trpc/snippets.list`),
      call(`${base}/readyz`),
      ...requests.map(([path, init]) => call(`${base}${path}`, init)),
    ]);
    for (const [i, [path, init]] of requests.entries()) {
      const res = answers[i]!;
      const what = `${init.method ?? 'GET'} ${path} ${JSON.stringify(init.headers ?? {})}`;
      expect(res.status, what).to.equal(503);
      expect(res.headers.get('retry-after'), what).to.equal('1');
      expect(await res.json(), what).to.deep.equal(DOWN);
    }
    expect(page.status).to.equal(503);
    expect(page.headers.get('retry-after')).to.equal('1');
    expect(trpc.status).to.equal(503);
    expect(trpc.headers.get('retry-after')).to.equal('1');
    const body = (await trpc.json()) as { error: { message: string; data: { code: string } } };
    expect(body.error.message).to.equal(DOWN.detail);
    expect(body.error.data.code).to.equal('SERVICE_UNAVAILABLE');
    expect(ready.status).to.equal(503);
    expect(ready.headers.get('retry-after')).to.equal('1');
    expect(await ready.json()).to.deep.equal({ detail: 'The database is not answering.' });
  }

  async function expectRecovered(base: string): Promise<void> {
    await readyzBecomes(base, 200);
    expect((await call(`${base}/snippets/`)).status).to.equal(200);
    const created = await call(`${base}/snippets/`, {
      method: 'POST',
      headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json' },
      body: '{"code": "x"}',
    });
    expect(created.status).to.equal(201);
    expect((await call(`${base}/trpc/snippets.list`)).status).to.equal(200);
  }

  it('works with MariaDB up (the baseline the faults below depart from)', async () => {
    await expectRecovered(service!.base);
  });

  it('MariaDB stopped: 503 with Retry-After and {"detail"} on REST paths, pages and /trpc, /readyz 503; started again, served again', async () => {
    await mariadb!.stop();
    await expectUnavailable(service!.base);
    await mariadb!.start();
    await expectRecovered(service!.base);
  });

  it('MariaDB hung (SIGSTOP): the same answers within the deadline, not after the pause; SIGCONT, served again', async () => {
    await mariadb!.hang();
    try {
      await expectUnavailable(service!.base);
    } finally {
      mariadb!.resume();
    }
    await expectRecovered(service!.base);
  });

  it('/trpc answers an unexpected error (a table gone) with the generic message; the log keeps the cause', async () => {
    const admin = await createConnection({ uri: mariadb!.url });
    try {
      await admin.query('RENAME TABLE snippets TO snippets_away');
      const res = await call(`${service!.base}/trpc/snippets.list`);
      const text = await res.text();
      expect(res.status).to.equal(500);
      expect(JSON.parse(text).error.message).to.equal('A server error occurred.');
      expect(text).not.to.include('snippets.snippets');
      expect(text).not.to.include("doesn't exist");
      const rest = await call(`${service!.base}/snippets/`);
      expect(rest.status).to.equal(500);
      expect(await rest.json()).to.deep.equal({ detail: 'A server error occurred.' });
      expect(service!.output()).to.include("Table 'snippets.snippets' doesn't exist");
    } finally {
      await admin.query('RENAME TABLE snippets_away TO snippets');
      await admin.end();
    }
  });
});
