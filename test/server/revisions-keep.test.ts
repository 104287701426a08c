// SNIPPET_REVISIONS_KEEP: a snippet keeps that many revisions, the oldest dropped at each save; numbering goes on. The
// setting goes the way a service's does (its configuration, the runtime and store built from it), to a service in the
// test's process (support/in-process.ts) on the suite's database: the setting is what is tested, not the process (a
// spawned one took 38 s of a busy machine to start and serve this test, 2026-11-26).
import { expect } from 'chai';
import { createUser } from '../../src/auth/users';
import { resetDatabase } from '../support/db';
import { serviceInProcess, type InProcessService } from '../support/in-process';

const AUTH = {
  Authorization: `Basic ${Buffer.from('alice:alicepass').toString('base64')}`,
  'Content-Type': 'application/json',
};

describe('SNIPPET_REVISIONS_KEEP=2', function () {
  this.timeout(600_000);
  let service: InProcessService | undefined;
  after(async () => service?.close());

  it('keeps the two newest revisions of each snippet; the older ones answer 404 and cannot be diffed from', async () => {
    await resetDatabase();
    service = await serviceInProcess({ SNIPPET_REVISIONS_KEEP: '2' });
    await createUser(service.runtime.store, 'alice', 'alicepass', { iterations: 1000 });
    const base = service.base;
    const created = await fetch(`${base}/snippets/`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify({ code: 'v1' }),
    });
    const { id } = (await created.json()) as { id: number };
    for (const code of ['v2', 'v3', 'v4']) {
      expect(
        (await fetch(`${base}/snippets/${id}/`, { method: 'PUT', headers: AUTH, body: JSON.stringify({ code }) }))
          .status,
      ).to.equal(200);
    }
    const revisions = (await (await fetch(`${base}/snippets/${id}/revisions/`)).json()) as {
      revision: number;
      code: string;
    }[];
    expect(revisions.map((r) => [r.revision, r.code])).to.deep.equal([
      [4, 'v4'],
      [3, 'v3'],
    ]);
    expect((await fetch(`${base}/snippets/${id}/revisions/2/`)).status).to.equal(404);
    expect((await fetch(`${base}/snippets/${id}/revisions/4/diff/?from=1`)).status).to.equal(400);
    expect(await (await fetch(`${base}/snippets/${id}/revisions/4/diff/`)).text()).to.include('+v4');
    expect((await fetch(`${base}/snippets/${id}/`)).headers.get('etag')).to.equal('"4"');
  });
});
