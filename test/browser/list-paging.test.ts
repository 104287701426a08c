// The browsable snippet list in Chromium: a page at a time with Next and Previous links, the create form first. A
// limit the URL gives, kept through the pager's links, and the JSON list are test/acceptance/list-page-links.test.ts's.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { makeUser, resetDatabase } from '../support/db';
import { logIn, useBrowser, watch } from '../support/browser';
import { createSnippet } from '../support/http';

const SNIPPETS = 25;

describe('the browsable snippet list, paged, in Chromium', function () {
  this.timeout(600_000);
  const h = useBrowser();
  let ids: number[];

  before(async () => {
    await resetDatabase();
    await makeUser('alice');
    ids = [];
    for (let i = 0; i < SNIPPETS; i++) {
      ids.push((await createSnippet('alice', { title: `snippet ${i}`, code: `x = ${i}` })).id);
    }
  });

  /** The ids of the snippets the list page shows, a row each. */
  async function shownIds(page: Page): Promise<number[]> {
    const rows = await page.locator('.snippet-row').evaluateAll((els) => els.map((el) => el.id));
    return rows.map((id) => Number(id.replace('snippet-', '')));
  }

  async function follow(page: Page, rel: 'next' | 'previous'): Promise<void> {
    await Promise.all([page.waitForEvent('load'), page.locator(`nav.pager a.${rel}`).first().click()]);
  }

  it('shows 20 snippets, Next leads to the other 5, Previous returns; New snippet is on the first screen', async () => {
    const page = await h.page();
    const { problems } = watch(page);
    await logIn(page, h.base, 'alice', '/snippets/');

    expect(await shownIds(page)).to.deep.equal(ids.slice(0, 20));
    expect(await page.locator('nav.pager a.previous').count(), 'no Previous on the first page').to.equal(0);
    const link = (await page.locator('#new-snippet').boundingBox())!;
    expect(link.y, 'New snippet on the first screen').to.be.below(page.viewportSize()!.height);

    await follow(page, 'next');
    expect(new URL(page.url()).searchParams.get('cursor')).to.be.a('string');
    expect(await shownIds(page)).to.deep.equal(ids.slice(20));
    expect(await page.locator('nav.pager a.next').count(), 'no Next on the last page').to.equal(0);

    await follow(page, 'previous');
    expect(page.url()).to.equal(`${h.base}/snippets/`);
    expect(await shownIds(page)).to.deep.equal(ids.slice(0, 20));
    expect(problems).to.deep.equal([]);
  });
});
