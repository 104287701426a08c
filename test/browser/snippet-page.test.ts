// The snippet pages in Chromium: paste → the new snippet's page; Copy, Raw, Download; a line's link; edit → history →
// a diff of only the changed line on a CRLF snippet, and restore. The layout (dark mode, a 390 px phone) is
// test/browser/appearance.test.ts's, axe-core's check of every page test/browser/accessibility.test.ts's; a search's
// marked lines, linked to their line, test/acceptance/list-page-links.test.ts's.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { logIn, useBrowser, watch } from '../support/browser';
import { api, createSnippet } from '../support/http';

describe('the snippet pages in Chromium', function () {
  this.timeout(600_000);
  const h = useBrowser();

  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  it('pastes with Ctrl+Enter from the New snippet link, the language from the file name, and lands on the page', async () => {
    const page = await h.page();
    const { problems } = watch(page);
    await logIn(page, h.base, 'alice', '/snippets/');
    await Promise.all([page.waitForURL(`${h.base}/snippets/new/`), page.click('#new-snippet')]);
    await page.fill('#create-form-filename', 'main.rs');
    await page.fill('#create-form-code', 'fn main() {\n    println!("hi");\n}\n');
    await Promise.all([page.waitForURL(/\/snippets\/\d+\/$/), page.press('#create-form-code', 'Control+Enter')]);
    const [snippet] = (await api().get('/snippets/').expect(200)).body as Record<string, unknown>[];
    expect(snippet).to.include({ title: 'main.rs', language: 'rs', code: 'fn main() {\n    println!("hi");\n}\n' });
    expect(page.url()).to.equal(`${h.base}/snippets/${snippet!.id}/`);
    expect(await page.locator('.snippet-head h1').textContent()).to.equal('main.rs');
    expect(await page.locator('.snippet-head .language').textContent()).to.equal('Rust');
    expect(await page.locator('pre.code .row').count()).to.equal(3);
    expect(await page.locator('pre.code .hljs-keyword').first().textContent()).to.equal('fn');
    expect(problems).to.deep.equal([]);
  });

  it('copies the code to the clipboard, shows it raw, and downloads it under a file name', async () => {
    const code = 'SELECT 1;\r\nSELECT "<b>";\r\n';
    const { id } = await createSnippet('alice', { code, title: 'two queries', language: 'sql' });
    const page = await h.page({ permissions: ['clipboard-read', 'clipboard-write'] });
    const { problems } = watch(page);
    await page.goto(`${h.base}/snippets/${id}/`);
    await page.click('#copy');
    await page.locator('#copy-status', { hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(code);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-link')]);
    expect(download.suggestedFilename()).to.equal('two-queries.sql');
    await Promise.all([page.waitForURL(`**/snippets/${id}/raw/`), page.click('#raw-link')]);
    expect(await page.locator('body').innerText()).to.include('SELECT "<b>";');
    expect(problems).to.deep.equal([]);
  });

  it('links each line: #L2 marks the second line', async () => {
    const { id } = await createSnippet('alice', { code: 'a = 1\nb = 2\nc = 3\n' });
    const page = await h.page();
    await page.goto(`${h.base}/snippets/${id}/`);
    const background = (n: number) => page.locator(`#L${n}`).evaluate((el) => getComputedStyle(el).backgroundColor);
    const plain = await background(2);
    await page.click('#L2 a.ln');
    expect(page.url()).to.equal(`${h.base}/snippets/${id}/#L2`);
    expect(await background(2)).not.to.equal(plain);
    expect(await background(1)).to.equal(plain);
    expect(await page.locator('#L2 .lc').textContent()).to.equal('b = 2');
  });

  it('edits a snippet a script saved with CRLF; its diff shows only the changed line; the owner restores', async () => {
    const { id } = await createSnippet('alice', { code: 'a = 1\r\nb = 2\r\nc = 3\r\n' });
    const page = await h.page();
    const { problems } = watch(page);
    await logIn(page, h.base, 'alice', `/snippets/${id}/`);
    await Promise.all([page.waitForURL(`**/snippets/${id}/edit/`), page.click('#edit-link')]);
    await page.fill('#edit-form-code', 'a = 1\nb = 20\nc = 3\n');
    await Promise.all([page.waitForURL(`${h.base}/snippets/${id}/`), page.click('#edit-form button[type=submit]')]);
    expect((await api().get(`/snippets/${id}/`).expect(200)).body.code).to.equal('a = 1\r\nb = 20\r\nc = 3\r\n');
    await Promise.all([page.waitForURL(`**/snippets/${id}/revisions/`), page.click('#history-link')]);
    await Promise.all([page.waitForURL(`**/revisions/2/diff/`), page.click('#revision-2 a.diff-link')]);
    expect(await page.locator('pre.diff .hljs-deletion').allInnerTexts()).to.deep.equal(['-b = 2']);
    expect(await page.locator('pre.diff .hljs-addition').allInnerTexts()).to.deep.equal(['+b = 20']);
    await page.goto(`${h.base}/snippets/${id}/revisions/`);
    await Promise.all([page.waitForURL(`**/revisions/1/restore/`), page.click('#restore-1')]);
    expect((await api().get(`/snippets/${id}/`).expect(200)).body.code).to.equal('a = 1\r\nb = 2\r\nc = 3\r\n');
    expect(problems).to.deep.equal([]);
  });
});
