// SNIPPET_WRITE_CONCURRENCY: while reads are in flight (or were within READS_LINGER_MS), the service's processes work
// on that many snippet writes at once, an even share each; the next waits in line, and past DATABASE_TIMEOUT_MS in it
// is answered 503 with Retry-After, its snippet never stored. With no read of late, writes do not wait
// (src/store/write-line.ts, src/inflight.ts). The
// settings go the way a service's do, to a service in the test's process (support/in-process.ts) as one of two, whose
// line and reads in flight the test holds itself.
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { createUser } from '../../src/auth/users';
import { READS_LINGER_MS } from '../../src/inflight';
import { STORE_BUSY } from '../../src/store/errors';
import { resetDatabase } from '../support/db';
import { basic } from '../support/http';
import { serviceInProcess, type InProcessService } from '../support/in-process';

const AUTH = { Authorization: basic('alice', 'alicepass'), 'Content-Type': 'application/json' };

describe('SNIPPET_WRITE_CONCURRENCY=2 over WEB_CONCURRENCY=2: a write at a time per process beside reads', function () {
  this.timeout(600_000);
  let service: InProcessService | undefined;
  after(async () => service?.close());

  /** Runs `work` with a read in flight in the process and the process's one place in the line taken meanwhile. */
  async function whileHeld<T>(reading: boolean, work: () => Promise<T>): Promise<T> {
    const { runtime } = service!;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const read = reading ? runtime.inflight.tracked(() => held, true) : undefined;
    const write = runtime.store.writeLine.run(() => held);
    try {
      return await work();
    } finally {
      release();
      await Promise.all([read, write]);
    }
  }

  const create = (code: string) =>
    fetch(`${service!.base}/snippets/`, { method: 'POST', headers: AUTH, body: JSON.stringify({ code }) });
  const codes = async () =>
    ((await (await fetch(`${service!.base}/snippets/`)).json()) as { code: string }[]).map((s) => s.code);

  before(async () => {
    await resetDatabase();
    service = await serviceInProcess({
      SNIPPET_WRITE_CONCURRENCY: '2',
      WEB_CONCURRENCY: '2',
      DATABASE_TIMEOUT_MS: '5000',
    });
    await createUser(service.runtime.store, 'alice', 'alicepass', { iterations: 1000 });
  });

  it('beside a read, a create waits while the one place is taken, and is stored and answered once it is free', async () => {
    let answered = false;
    // In an object: a promise returned would be awaited, the line still held.
    const { waiting } = await whileHeld(true, async () => {
      const waiting = create('first').then((r) => ((answered = true), r));
      await sleep(300);
      expect(answered, 'answered while the line was full').to.equal(false);
      return { waiting };
    });
    expect((await waiting).status).to.equal(201);
    expect(await codes()).to.deep.equal(['first']);
  });

  it('beside a read, a create that waits past DATABASE_TIMEOUT_MS is answered 503 with Retry-After, and nothing is stored', async () => {
    await whileHeld(true, async () => {
      const refused = await create('second');
      expect(refused.status).to.equal(503);
      expect(refused.headers.get('retry-after')).to.equal('1');
      expect(await refused.json()).to.deep.equal({ detail: STORE_BUSY });
    });
    expect(await codes()).to.deep.equal(['first']);
  });

  it('just after a read ended, a create still waits for its place', async () => {
    const { runtime } = service!;
    const owner = {
      id: (await runtime.store.models.User.findOne({ where: { username: 'alice' } }))!.id,
      username: 'alice',
    };
    await runtime.inflight.tracked(() => Promise.resolve(), true);
    let stored = false;
    // The line is asked at the call, within the linger of the read that just ended.
    const { waiting } = await whileHeld(false, async () => {
      const waiting = runtime.store.snippets.create({ code: 'lingered' }, owner, Date.now).then(() => (stored = true));
      await sleep(300);
      expect(stored, 'stored while the line was full').to.equal(false);
      return { waiting };
    });
    await waiting;
    expect(await codes()).to.deep.equal(['first', 'lingered']);
  });

  it('with no read in flight nor of late, a create goes at once though the share is taken', async () => {
    await sleep(READS_LINGER_MS);
    await whileHeld(false, async () => expect((await create('third')).status).to.equal(201));
    expect(await codes()).to.deep.equal(['first', 'lingered', 'third']);
  });

  it('a query counts as a read in flight, a mutation does not', async () => {
    const { inflight, store } = service!.runtime;
    // What the line would be told from inside each procedure's store call: no time passes between them and it.
    const seen: Record<string, boolean> = {};
    const { page, create: stored } = store.snippets;
    store.snippets.page = (...args) => ((seen.list = inflight.reads), page(...args));
    store.snippets.create = (...args) => ((seen.create = inflight.reads), stored(...args));
    try {
      await sleep(READS_LINGER_MS);
      expect((await create('fourth')).status).to.equal(201);
      await codes();
    } finally {
      Object.assign(store.snippets, { page, create: stored });
    }
    expect(seen).to.deep.equal({ create: false, list: true });
  });
});
