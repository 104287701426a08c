// SNIPPET_WRITE_CONCURRENCY: the service's processes work on that many snippet writes at once, an even share each; the
// next waits in line, and past DATABASE_TIMEOUT_MS in it is answered 503 with Retry-After, its snippet never stored
// (src/store/write-line.ts). The settings go the way a service's do, to a service in the test's process
// (support/in-process.ts) as one of two, whose line the test holds itself.
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { createUser } from '../../src/auth/users';
import { STORE_BUSY } from '../../src/store/errors';
import { resetDatabase } from '../support/db';
import { serviceInProcess, type InProcessService } from '../support/in-process';

const AUTH = {
  Authorization: `Basic ${Buffer.from('alice:alicepass').toString('base64')}`,
  'Content-Type': 'application/json',
};

describe('SNIPPET_WRITE_CONCURRENCY=2 over WEB_CONCURRENCY=2: a write at a time per process', function () {
  this.timeout(600_000);
  let service: InProcessService | undefined;
  after(async () => service?.close());

  /** The process's one place in the line taken until the returned function is called. */
  function holdLine(): () => void {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    void service!.runtime.store.writeLine.run(() => held);
    return release;
  }

  const create = (code: string) =>
    fetch(`${service!.base}/snippets/`, { method: 'POST', headers: AUTH, body: JSON.stringify({ code }) });
  const codes = async () =>
    ((await (await fetch(`${service!.base}/snippets/`)).json()) as { code: string }[]).map((s) => s.code);

  it('a create waits while the one place is taken, and is stored and answered once it is free', async () => {
    await resetDatabase();
    service = await serviceInProcess({
      SNIPPET_WRITE_CONCURRENCY: '2',
      WEB_CONCURRENCY: '2',
      DATABASE_TIMEOUT_MS: '5000',
    });
    await createUser(service.runtime.store, 'alice', 'alicepass', { iterations: 1000 });
    const release = holdLine();
    let answered = false;
    const waiting = create('first').then((r) => ((answered = true), r));
    await sleep(300);
    expect(answered, 'answered while the line was full').to.equal(false);
    expect(await codes()).to.deep.equal([]);
    release();
    expect((await waiting).status).to.equal(201);
    expect(await codes()).to.deep.equal(['first']);
  });

  it('a create that waits past DATABASE_TIMEOUT_MS is answered 503 with Retry-After, and nothing is stored', async () => {
    const release = holdLine();
    try {
      const refused = await create('second');
      expect(refused.status).to.equal(503);
      expect(refused.headers.get('retry-after')).to.equal('1');
      expect(await refused.json()).to.deep.equal({ detail: STORE_BUSY });
    } finally {
      release();
    }
    expect(await codes()).to.deep.equal(['first']);
    expect((await create('third')).status).to.equal(201);
  });
});
