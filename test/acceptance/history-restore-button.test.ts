// The revisions page offers Restore to the snippet's owner only: its buttons are in the HTML (server/web/history.ts),
// so supertest reads them (test/browser/history.test.ts clicks the owner's; that another user and an anonymous visitor
// get none was checked there in Chromium, a context and a login more).
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic, createSnippet } from '../support/http';

describe('the revisions page’s Restore buttons', () => {
  let id: number;

  before(async () => {
    await resetDatabase();
    await makeUser('alice');
    await makeUser('bob');
    id = (await createSnippet('alice', { title: 'one', code: 'a = 1\n' })).id;
    await api().put(`/snippets/${id}/`).set('Authorization', basic('alice')).send({ code: 'a = 2\n' }).expect(200);
  });

  /** The ids of the Restore buttons and the count of revisions the page shows to `as` (Basic), or anonymously. */
  async function shown(as?: string): Promise<{ buttons: string[]; revisions: number }> {
    const req = api().get(`/snippets/${id}/revisions/`).set('Accept', 'text/html');
    if (as) req.set('Authorization', basic(as));
    const { text } = await req.expect(200);
    return {
      buttons: [...text.matchAll(/<button type="submit" id="(restore-\d+)"/g)].map((m) => m[1]!),
      revisions: [...text.matchAll(/<li id="revision-\d+"/g)].length,
    };
  }

  it('the owner gets a button per revision', async () => {
    expect(await shown('alice')).to.deep.equal({ buttons: ['restore-2', 'restore-1'], revisions: 2 });
  });

  it('another user sees every revision and no button', async () => {
    expect(await shown('bob')).to.deep.equal({ buttons: [], revisions: 2 });
  });

  it('an anonymous visitor sees every revision and no button', async () => {
    expect(await shown()).to.deep.equal({ buttons: [], revisions: 2 });
  });
});
