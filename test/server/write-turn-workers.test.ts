// WEB_CONCURRENCY=2 on one SQLite file: the workers' Sequelize writes take the file's lock in turns the primary hands
// out (src/store/write-turn.ts), and their snippet writes' groups wait for it on their writer threads
// (src/store/sqlite/take-lock.ts). With SQLite's busy handler off (SQLITE_BUSY_TIMEOUT_MS=0) a write that met the
// other's lock otherwise would fail at once as SQLITE_BUSY, a 503: every concurrent create, update and delete here is
// answered 2xx.
import { expect } from 'chai';
import { ALICE, freshRequest, startTwoWorkers } from '../support/cluster';
import { describeOnSqlitePass, serviceEnv, stopService, type ServiceProcess } from '../support/process';

/** A request of alice's, on a connection of its own (the primary hands the requests to its workers in turn). */
const request = (base: string, method: string, path: string, body?: string) =>
  freshRequest(base, method, path, { Authorization: ALICE }, body);

describeOnSqlitePass('writes of two processes on one SQLite file (the write turn)', function () {
  this.timeout(300_000);
  let service: ServiceProcess | undefined;
  after(async () => {
    if (service) await stopService(service);
  });

  it('answers every one of many concurrent creates, updates and deletes from both workers, none busy', async () => {
    const env = serviceEnv({ WEB_CONCURRENCY: '2', SQLITE_BUSY_TIMEOUT_MS: '0', REDIS_URL: '' });
    service = await startTwoWorkers(env);
    const { base } = service;

    const N = 60;
    const created = await Promise.all(
      Array.from({ length: N }, (_, i) => request(base, 'POST', '/snippets/', JSON.stringify({ code: `v${i}` }))),
    );
    expect(created.map((r) => r.status)).to.deep.equal(Array(N).fill(201));
    const ids = created.map((r) => (JSON.parse(r.body) as { id: number }).id);

    const writes = await Promise.all([
      ...ids.map((id, i) => request(base, 'PUT', `/snippets/${id}/`, JSON.stringify({ code: `w${i}` }))),
      ...ids.map((id) => request(base, 'PUT', `/snippets/${id}/`, JSON.stringify({ code: 'again' }))),
    ]);
    expect(writes.map((r) => r.status)).to.deep.equal(Array(2 * N).fill(200));
    const deleted = await Promise.all(ids.map((id) => request(base, 'DELETE', `/snippets/${id}/`)));
    expect(deleted.map((r) => r.status)).to.deep.equal(Array(N).fill(204));
  });
});
