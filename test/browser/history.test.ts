// A snippet's history in Chromium: the History link, the revisions with their diffs highlighted, and the owner's
// restore with its button (that only the owner gets buttons: test/acceptance/history-restore-button.test.ts). A CRLF
// snippet's diff of one changed line, edited through the form, is test/browser/snippet-page.test.ts's.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { logIn, useBrowser, watch } from '../support/browser';
import { api, basic, createSnippet } from '../support/http';

const HOSTILE_CODE = '</pre><script>alert("code")</script>\n<img src=x onerror="alert(2)">\n';

describe('history pages in Chromium', function () {
  this.timeout(600_000);
  const h = useBrowser();
  let id: number;

  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    id = (await createSnippet('alice', { title: 'one', code: 'a = 1\n' })).id;
    await api()
      .put(`/snippets/${id}/`)
      .set('Authorization', basic('alice'))
      .send({ title: 'two', code: `a = 2\n${HOSTILE_CODE}` })
      .expect(200);
  });

  it('the snippet page links its history; each revision links its diff, shown highlighted as text', async () => {
    const page = await h.page();
    const { problems } = watch(page);
    await page.goto(`${h.base}/snippets/${id}/`);
    await page.click('#history-link');
    await page.waitForURL(`**/snippets/${id}/revisions/`);
    expect(await page.locator('ol.revisions li').count()).to.equal(2);
    expect(await page.locator('button[id^=restore-]').count(), 'no restore button for the anonymous').to.equal(0);
    await page.click('#revision-2 a.diff-link');
    await page.waitForURL(`**/snippets/${id}/revisions/2/diff/`);
    expect(await page.locator('pre.diff .hljs-deletion').first().innerText()).to.equal('-a = 1');
    expect(await page.locator('pre.diff .hljs-addition').first().innerText()).to.equal('+a = 2');
    expect(await page.locator('pre.diff').innerText()).to.include('+</pre><script>alert("code")</script>');
    expect(await page.locator('script:not([src])').count()).to.equal(0);
    expect(await page.locator('img[src=x]').count()).to.equal(0);
    expect(problems).to.deep.equal([]);
  });

  // That another user sees every revision and no button needs only the HTML:
  // test/acceptance/history-restore-button.test.ts.
  it('the owner restores a revision with its button', async () => {
    const page = await h.page();
    const { problems } = watch(page);
    await logIn(page, h.base, 'alice', `/snippets/${id}/revisions/`);
    await Promise.all([page.waitForURL(`**/snippets/${id}/revisions/1/restore/`), page.click('#restore-1')]);
    expect(await page.locator('.response .headers').innerText()).to.include('HTTP 200');
    expect((await api().get(`/snippets/${id}/`).expect(200)).body).to.include({ title: 'one', code: 'a = 1\n' });
    await page.goto(`${h.base}/snippets/${id}/revisions/`);
    expect(await page.locator('ol.revisions li').count()).to.equal(3);
    expect(problems).to.deep.equal([]);
  });
});
