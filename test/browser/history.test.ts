// A snippet's history in Chromium: the History link, the revisions with their diffs highlighted, and restore for the
// owner only.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { startBrowser, watch, type Harness } from '../support/browser';
import { api, basic } from '../support/http';

const HOSTILE_CODE = '</pre><script>alert("code")</script>\n<img src=x onerror="alert(2)">\n';

describe('history pages in Chromium', function () {
  this.timeout(600_000);
  let h: Harness;
  let id: number;

  before(async () => {
    h = await startBrowser();
  });
  after(async () => h?.close());
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    await makeUser('bob');
    id = (
      await api()
        .post('/snippets/')
        .set('Authorization', basic('alice'))
        .send({ title: 'one', code: 'a = 1\n' })
        .expect(201)
    ).body.id;
    await api()
      .put(`/snippets/${id}/`)
      .set('Authorization', basic('alice'))
      .send({ title: 'two', code: `a = 2\n${HOSTILE_CODE}` })
      .expect(200);
  });

  async function login(page: import('playwright-core').Page, username: string): Promise<void> {
    await page.goto(`${h.base}/api-auth/login/?next=/snippets/${id}/`);
    await page.fill('#id_username', username);
    await page.fill('#id_password', `${username}pass`);
    await Promise.all([page.waitForURL(`${h.base}/snippets/${id}/`), page.click('#login-form button[type=submit]')]);
  }

  it('the snippet page links its history; each revision links its diff, shown highlighted as text', async () => {
    const page = await h.browser.newPage();
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
    await page.close();
  });

  it('the owner restores a revision with its button; another user sees no button', async () => {
    const context = await h.browser.newContext();
    const page = await context.newPage();
    const { problems } = watch(page);
    await login(page, 'alice');
    await page.goto(`${h.base}/snippets/${id}/revisions/`);
    await Promise.all([page.waitForURL(`**/snippets/${id}/revisions/1/restore/`), page.click('#restore-1')]);
    expect(await page.locator('.response .headers').innerText()).to.include('HTTP 200');
    expect((await api().get(`/snippets/${id}/`).expect(200)).body).to.include({ title: 'one', code: 'a = 1\n' });
    await page.goto(`${h.base}/snippets/${id}/revisions/`);
    expect(await page.locator('ol.revisions li').count()).to.equal(3);
    expect(problems).to.deep.equal([]);
    await context.close();

    const other = await h.browser.newContext();
    const bobPage = await other.newPage();
    await login(bobPage, 'bob');
    await bobPage.goto(`${h.base}/snippets/${id}/revisions/`);
    expect(await bobPage.locator('ol.revisions li').count()).to.equal(3);
    expect(await bobPage.locator('button[id^=restore-]').count()).to.equal(0);
    await other.close();
  });

  it('a snippet a script saved with CRLF and another with LF: the diff shows exactly the changed line; restore works', async () => {
    const crlf = (
      await api()
        .post('/snippets/')
        .set('Authorization', basic('alice'))
        .send({ code: 'a = 1\r\nb = 2\r\nc = 3\r\n' })
        .expect(201)
    ).body.id as number;
    await api()
      .put(`/snippets/${crlf}/`)
      .set('Authorization', basic('alice'))
      .send({ code: 'a = 1\nb = 20\nc = 3\n' })
      .expect(200);
    const context = await h.browser.newContext();
    const page = await context.newPage();
    const { problems } = watch(page);
    id = crlf;
    await login(page, 'alice');
    await Promise.all([page.waitForURL(`**/snippets/${crlf}/revisions/`), page.click('#history-link')]);
    await Promise.all([page.waitForURL(`**/revisions/2/diff/`), page.click('#revision-2 a.diff-link')]);
    expect(await page.locator('pre.diff .hljs-deletion').allInnerTexts()).to.deep.equal(['-b = 2']);
    expect(await page.locator('pre.diff .hljs-addition').allInnerTexts()).to.deep.equal(['+b = 20']);
    await page.goto(`${h.base}/snippets/${crlf}/revisions/`);
    await Promise.all([page.waitForURL(`**/revisions/1/restore/`), page.click('#restore-1')]);
    expect((await api().get(`/snippets/${crlf}/`).expect(200)).body.code).to.equal('a = 1\r\nb = 2\r\nc = 3\r\n');
    expect(problems).to.deep.equal([]);
    await context.close();
  });
});
