// The browsable API's forms on a 400, in Chromium: the user's input is kept and each message shows under its field, as DRF does.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { logIn, useBrowser, watch } from '../support/browser';
import { api, createSnippet } from '../support/http';

const NOT_BLANK = 'This field may not be blank.';

/** Chromium reports every 4xx answer on the console; the 400 is the one these tests ask for. */
const withoutThe400 = (problems: string[]) => problems.filter((p) => !/status of 400/.test(p));

describe('the browsable API forms on a 400 in Chromium', function () {
  this.timeout(600_000);
  const h = useBrowser();

  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  it('POST /snippets/ from the paste form re-renders it with what was typed and the message under its field', async () => {
    const page = await h.page();
    const { problems } = watch(page);
    await logIn(page, h.base, 'alice', '/snippets/new/');
    await page.fill('#create-form-title', 'Kept <title>');
    await page.fill('#create-form-code', '   ');
    await page.check('#create-form input[type=checkbox][name=linenos]');
    await page.selectOption('#create-form select[name=language]', 'java');
    await page.selectOption('#create-form select[name=style]', 'monokai');
    await Promise.all([page.waitForLoadState('load'), page.click('#create-form button[type=submit]')]);

    expect(await page.locator('h1').textContent()).to.equal('New snippet');
    expect(await page.inputValue('#create-form-title')).to.equal('Kept <title>');
    expect(await page.inputValue('#create-form-code')).to.equal('   ');
    expect(await page.isChecked('#create-form input[type=checkbox][name=linenos]')).to.equal(true);
    expect(await page.inputValue('#create-form select[name=language]')).to.equal('java');
    expect(await page.inputValue('#create-form select[name=style]')).to.equal('monokai');
    expect(await page.locator('#create-form [data-field=code] .errorlist li').allTextContents()).to.deep.equal([
      NOT_BLANK,
    ]);
    expect(await page.locator('#create-form [data-field=title] .errorlist li').count()).to.equal(0);
    expect((await api().get('/snippets/').expect(200)).body).to.deep.equal([]);
    expect(withoutThe400(problems)).to.deep.equal([]);
  });

  it('PUT /snippets/<pk>/ from the edit form keeps the page as typed and shows the message under its field', async () => {
    const { id } = await createSnippet('alice', { title: 'before', code: 'x = 1' });
    const page = await h.page();
    const { problems } = watch(page);
    await logIn(page, h.base, 'alice', `/snippets/${id}/edit/`);
    await page.fill('#edit-form-title', 'after');
    await page.fill('#edit-form-code', '   ');
    await page.click('#edit-form button[type=submit]');

    await page.locator('#edit-form [data-field=code] .errorlist li').first().waitFor();
    expect(await page.locator('#edit-form [data-field=code] .errorlist li').allTextContents()).to.deep.equal([
      NOT_BLANK,
    ]);
    expect(await page.inputValue('#edit-form-title')).to.equal('after');
    expect(await page.inputValue('#edit-form-code')).to.equal('   ');
    expect((await api().get(`/snippets/${id}/`).expect(200)).body).to.include({ title: 'before', code: 'x = 1' });

    // Fixed and sent again, the messages go and the change is saved.
    await page.fill('#edit-form-code', 'x = 2');
    await Promise.all([page.waitForURL(`${h.base}/snippets/${id}/`), page.click('#edit-form button[type=submit]')]);
    expect((await api().get(`/snippets/${id}/`).expect(200)).body).to.include({ title: 'after', code: 'x = 2' });
    expect(withoutThe400(problems)).to.deep.equal([]);
  });
});
