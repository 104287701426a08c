// The browsable pages in real headless Chromium: they render cleanly, and user content never runs. The pages only
// read, anonymously: their user and snippet are made once, and one page (one context) visits them all, each test
// with its own list of problems (a context costs Chromium a renderer process: 0.35 CPU-s more than a navigation,
// 2026-11-26, docs/development.md "Tests"). The API root's links are test/acceptance/root-page.test.ts's.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { makeUser, resetDatabase } from '../support/db';
import { freshPage, useBrowser, watch } from '../support/browser';
import { createSnippet } from '../support/http';

const HOSTILE_TITLE = '"><script>alert("title")</script><img src=x onerror=alert(1)>';
const HOSTILE_CODE = '</pre><script>alert("code")</script>\n<img src=x onerror="alert(2)">\n<svg onload=alert(3)>';

describe('pages in Chromium', function () {
  this.timeout(600_000);
  const h = useBrowser();
  let id: number;
  let aliceId: number;

  let page: Page;
  let problems: string[];

  before(async () => {
    await resetDatabase();
    aliceId = (await makeUser('alice')).id;
    id = (await createSnippet('alice', { title: HOSTILE_TITLE, code: HOSTILE_CODE, linenos: true })).id;
    page = await freshPage(h.browser);
    ({ problems } = watch(page));
  });
  beforeEach(() => {
    problems.length = 0;
  });
  after(async () => page?.context().close());

  for (const [name, path] of [
    ['the API root', () => '/'],
    ['the snippet list', () => '/snippets/'],
    ['a snippet', () => `/snippets/${id}/`],
    ['its highlight view', () => `/snippets/${id}/highlight/`],
    ['the user list', () => '/users/'],
    ['a user', () => `/users/${aliceId}/`],
  ] as const) {
    it(`${name} renders without console errors, and hostile content stays text`, async () => {
      const res = await page.goto(h.base + path());
      expect(res?.status()).to.equal(200);
      await page.waitForLoadState('load');
      expect(problems).to.deep.equal([]);
      expect(await page.locator('script:not([src])').count()).to.equal(0);
      expect(await page.locator('img[src=x], svg[onload]').count()).to.equal(0);
    });
  }

  it('the snippet page links its highlight and raw views, which show the code as text', async () => {
    await page.goto(`${h.base}/snippets/${id}/`);
    await page.click('#highlight-link');
    await page.waitForURL(`**/snippets/${id}/highlight/`);
    expect(await page.locator('h2').textContent()).to.equal(HOSTILE_TITLE);
    expect(await page.locator('table.highlighttable').count()).to.equal(1);
    await page.goBack();
    await page.click('#raw-link');
    expect(await page.locator('body').innerText()).to.include('<script>alert("code")</script>');
    expect(problems).to.deep.equal([]);
  });
});
