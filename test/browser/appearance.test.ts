// The pages' layout in Chromium, which only a browser computes: dark mode from prefers-color-scheme and its toggle,
// and a 390 px phone that never scrolls sideways.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { logIn, useBrowser } from '../support/browser';
import { createSnippet } from '../support/http';

describe('the pages’ layout in Chromium', function () {
  this.timeout(600_000);
  const h = useBrowser();

  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  it('follows prefers-color-scheme, and the toggle overrides it and is remembered', async () => {
    const { id } = await createSnippet('alice', { code: 'x = 1' });
    const page = await h.page({ colorScheme: 'dark' });
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.goto(`${h.base}/snippets/${id}/`);
    expect(await background()).to.equal('rgb(13, 17, 23)');
    await page.click('#theme-toggle');
    expect(await background()).to.equal('rgb(246, 248, 250)');
    await page.goto(`${h.base}/snippets/`);
    expect(await background(), 'the choice is kept').to.equal('rgb(246, 248, 250)');
    const light = await h.page({ colorScheme: 'light' });
    await light.goto(`${h.base}/snippets/${id}/`);
    expect(await light.evaluate(() => getComputedStyle(document.body).backgroundColor)).to.equal('rgb(246, 248, 250)');
  });

  it('fits a 390 px phone: the page chrome never scrolls sideways, a long line scrolls in its box', async () => {
    const { id } = await createSnippet('alice', {
      code: `x = "${'long '.repeat(80)}"\n`,
      title: 'A title of some length here',
    });
    const page = await h.page({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await logIn(page, h.base, 'alice');
    for (const path of [
      `/snippets/${id}/`,
      '/snippets/',
      '/snippets/new/',
      `/snippets/${id}/edit/`,
      `/snippets/${id}/highlight/`,
    ]) {
      await page.goto(h.base + path);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, path).to.be.at.most(390);
    }
  });
});
