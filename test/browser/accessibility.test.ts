// axe-core's check of the pages people write in, in Chromium: no serious or critical violation. The slowest of the page
// tests, so split in two files that mocha's two jobs run side by side (issue 32): the history pages, the API root and
// the embed view are test/browser/accessibility-history.test.ts's.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { axePage, logIn, seriousViolations, useBrowser } from '../support/browser';
import { createSnippet } from '../support/http';

describe('axe-core on the list, snippet and form pages in Chromium', function () {
  this.timeout(600_000);
  const h = useBrowser();
  let id: number;

  before(async () => {
    await resetDatabase();
    await makeUser('alice');
    id = (await createSnippet('alice', { code: 'def f():\n    return 1\n', title: 'axe', language: 'python' })).id;
    // For the search: a row matched in its code (its lines, the term marked) beside one matched in its title (a preview).
    await createSnippet('alice', { code: 'axe = 1\n', title: '' });
  });

  // The list is analysed once, searched: the page of /snippets/ with its filters filled and both kinds of row.
  it('passes on the list searched, a snippet, the paste and edit forms, with no serious or critical violation', async () => {
    const page = await axePage(h);
    await logIn(page, h.base, 'alice');
    const report: string[] = [];
    for (const path of ['/snippets/?search=axe', `/snippets/${id}/`, '/snippets/new/', `/snippets/${id}/edit/`]) {
      await page.goto(h.base + path);
      report.push(...(await seriousViolations(page, path)));
    }
    expect(report).to.deep.equal([]);
  });
});
