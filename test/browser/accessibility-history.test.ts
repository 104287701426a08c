// axe-core's check of the history pages, the browsable API's view, the API root and the embed view, in Chromium: no
// serious or critical violation. The other half of test/browser/accessibility.test.ts (split so that mocha's two jobs
// run the halves side by side, issue 32).
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { axePage, logIn, seriousViolations, useBrowser, watch } from '../support/browser';
import { api, basic, createSnippet } from '../support/http';

describe('axe-core on the history, API and embed pages in Chromium', function () {
  this.timeout(600_000);
  const h = useBrowser();
  let id: number;

  before(async () => {
    await resetDatabase();
    await makeUser('alice');
    id = (await createSnippet('alice', { code: 'def f():\n    return 1\n', title: 'axe', language: 'python' })).id;
    // A second revision, for the diff page.
    await api().put(`/snippets/${id}/`).set('Authorization', basic('alice')).send({ code: 'x' }).expect(200);
  });

  it('passes on the revisions, a diff, the browsable API view and the API root, with no serious or critical violation', async () => {
    const page = await axePage(h);
    await logIn(page, h.base, 'alice');
    const report: string[] = [];
    for (const path of [
      `/snippets/${id}/revisions/`,
      `/snippets/${id}/revisions/2/diff/`,
      `/snippets/${id}/?format=api`,
      '/',
    ]) {
      await page.goto(h.base + path);
      report.push(...(await seriousViolations(page, path)));
    }
    expect(report).to.deep.equal([]);
  });

  it('passes on the embed view, which runs no problem of its own', async () => {
    const page = await axePage(h);
    const { problems } = watch(page);
    await page.goto(`${h.base}/snippets/${id}/embed/`);
    expect(await seriousViolations(page, `/snippets/${id}/embed/`)).to.deep.equal([]);
    expect(problems).to.deep.equal([]);
  });
});
