// The browsable snippet list's search box and filters in Chromium: the query kept in every link, values escaped. A
// user's page linking to that user's snippets is test/acceptance/list-page-links.test.ts's.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { makeUser, resetDatabase } from '../support/db';
import { useBrowser, watch } from '../support/browser';
import { createSnippet } from '../support/http';

describe('the browsable snippet list, searched and filtered, in Chromium', function () {
  this.timeout(600_000);
  const h = useBrowser();

  before(async () => {
    await resetDatabase();
    await makeUser('alice');
    await makeUser('bob');
    for (let i = 0; i < 6; i++) {
      for (const user of ['alice', 'bob']) {
        await createSnippet(user, {
          title: `${user} ${i}`,
          code: i % 2 ? `retry_backoff(${i})` : `print(${i})`,
          language: i % 3 ? 'python' : 'rust',
        });
      }
    }
  });

  /** The titles of the rows the list page shows. */
  const shownTitles = async (page: Page) => page.locator('.snippet-row .title').allTextContents();

  it('finds with the search box and filters, keeps the query through Next and Previous', async () => {
    const page = await h.page();
    const { problems } = watch(page);
    await page.goto(`${h.base}/snippets/?limit=2`);
    await page.fill('#filter-search', 'BACKOFF');
    await page.fill('#filter-owner', 'alice');
    await page.selectOption('#filter-ordering', '-created');
    await Promise.all([page.waitForEvent('load'), page.click('#list-filters button[type=submit]')]);
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).to.include({
      search: 'BACKOFF',
      owner: 'alice',
      ordering: '-created',
      limit: '2',
      language: '',
    });
    expect(await shownTitles(page)).to.deep.equal(['alice 5', 'alice 3']);
    expect(await page.inputValue('#filter-search')).to.equal('BACKOFF');
    expect(await page.inputValue('#filter-owner')).to.equal('alice');
    await Promise.all([page.waitForEvent('load'), page.locator('nav.pager a.next').first().click()]);
    expect(await shownTitles(page)).to.deep.equal(['alice 1']);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).to.include({
      search: 'BACKOFF',
      owner: 'alice',
      ordering: '-created',
    });
    await Promise.all([page.waitForEvent('load'), page.locator('nav.pager a.previous').first().click()]);
    expect(await shownTitles(page)).to.deep.equal(['alice 5', 'alice 3']);
    await page.selectOption('#filter-language', 'rust');
    await page.fill('#filter-search', '');
    await Promise.all([page.waitForEvent('load'), page.click('#list-filters button[type=submit]')]);
    expect(await shownTitles(page)).to.deep.equal(['alice 3', 'alice 0']);
    expect(problems).to.deep.equal([]);
  });

  it('shows hostile values back as text, never as markup', async () => {
    const page = await h.page();
    const { problems } = watch(page);
    const hostile = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
    await page.goto(`${h.base}/snippets/?${new URLSearchParams({ search: hostile, owner: hostile, limit: '2' })}`, {
      waitUntil: 'load',
    });
    expect(await page.inputValue('#filter-search')).to.equal(hostile);
    expect(await page.inputValue('#filter-owner')).to.equal(hostile);
    expect(await page.locator('#list-filters script, #list-filters img, #list-filters b').count()).to.equal(0);
    expect(problems).to.deep.equal([]);
  });
});
