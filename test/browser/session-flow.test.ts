// A person in Chromium: log in through the form, create through the form, find it in the list, highlight view, edit,
// delete, log out. The other tests log in through the form's POST alone (logIn, test/support/browser.ts).
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { logIn, useBrowser, watch } from '../support/browser';
import { api } from '../support/http';

const HOSTILE_TITLE = '<script>alert("t")</script><img src=x onerror=alert(1)>';
const HOSTILE_CODE = 'print("<script>alert(2)</script>")\n<img src=x onerror="alert(3)">';

describe('the browsable API session flow in Chromium', function () {
  this.timeout(600_000);
  const h = useBrowser();

  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  it('logs in, creates, lists, highlights, edits, deletes and logs out, with hostile content never running', async () => {
    const page = await h.page();
    const { problems } = watch(page);

    // New snippet, from any page: an anonymous visitor logs in first and comes back to the form.
    await page.goto(`${h.base}/snippets/`);
    expect(await page.locator('#create-form').count(), 'no create form for an anonymous visitor').to.equal(0);
    await Promise.all([page.waitForURL('**/api-auth/login/**'), page.click('#new-snippet')]);
    await page.fill('#id_username', 'alice');
    await page.fill('#id_password', 'alicepass');
    await Promise.all([page.waitForURL(`${h.base}/snippets/new/`), page.click('#login-form button[type=submit]')]);
    expect(await page.locator('.navbar .user').textContent()).to.equal('alice');

    // Create through the form, choosing the language with the searchable picker; the browser lands on the snippet.
    await page.fill('#create-form-title', HOSTILE_TITLE);
    await page.fill('#create-form-code', HOSTILE_CODE);
    await page.check('#create-form input[type=checkbox][name=linenos]');
    await page.fill('#create-form .choice-filter[data-for=language]', 'py');
    expect(await page.inputValue('#create-form select[name=language]'), 'an alias finds its language').to.equal(
      'python',
    );
    await Promise.all([page.waitForURL(/\/snippets\/\d+\/$/), page.click('#create-form button[type=submit]')]);
    const [created] = (await api().get('/snippets/').expect(200)).body as {
      id: number;
      title: string;
      code: string;
      owner: string;
      linenos: boolean;
    }[];
    expect(page.url()).to.equal(`${h.base}/snippets/${created!.id}/`);
    // A browser submits a textarea's line breaks as CRLF (HTML's form encoding); a page's form stores them as typed, LF.
    expect(created).to.include({ title: HOSTILE_TITLE, code: HOSTILE_CODE, owner: 'alice', linenos: true });
    expect(await page.locator('.snippet-head h1').textContent()).to.equal(HOSTILE_TITLE);

    // The list shows it, with a link to it.
    await page.goto(`${h.base}/snippets/`);
    await Promise.all([
      page.waitForURL(`**/snippets/${created!.id}/`),
      page.locator(`#snippet-${created!.id} a.title`).click(),
    ]);

    // Its highlight view shows the title and the code as text.
    await Promise.all([page.waitForURL(`**/snippets/${created!.id}/highlight/`), page.click('#highlight-link')]);
    expect(await page.locator('h2').textContent()).to.equal(HOSTILE_TITLE);
    expect(await page.locator('td.code').innerText()).to.include('<script>alert(2)</script>');
    await page.goBack();

    // Edit (PUT sent by the page's script with the CSRF token): back on the snippet page; then delete.
    await Promise.all([page.waitForURL(`**/snippets/${created!.id}/edit/`), page.click('#edit-link')]);
    await page.fill('#edit-form-code', 'print("edited")');
    await Promise.all([
      page.waitForURL(`${h.base}/snippets/${created!.id}/`),
      page.click('#edit-form button[type=submit]'),
    ]);
    expect((await api().get(`/snippets/${created!.id}/`).expect(200)).body.code).to.equal('print("edited")');
    await Promise.all([page.waitForURL(`${h.base}/snippets/`), page.click('#delete-form button[type=submit]')]);
    await api().get(`/snippets/${created!.id}/`).expect(404);

    // Log out: the menu offers "Log in" again, and the create form is gone.
    await Promise.all([page.waitForLoadState('load'), page.click('#logout')]);
    await page.goto(`${h.base}/snippets/`);
    expect(await page.locator('#login').count()).to.equal(1);
    expect(await page.locator('#create-form').count()).to.equal(0);

    expect(problems).to.deep.equal([]);
  });

  it("the page script sends the csrftoken cookie in X-CSRFToken, with or without the form's copy", async () => {
    const page = await h.page();
    const { problems } = watch(page);
    await logIn(page, h.base, 'alice', '/snippets/new/');
    const token = (await page.context().cookies()).find((c) => c.name === 'csrftoken');
    expect(token, 'a csrftoken cookie scripts can read').to.include({ httpOnly: false, sameSite: 'Lax' });
    expect(await page.evaluate(() => document.cookie)).to.include(`csrftoken=${token!.value}`);
    await page.fill('#create-form-code', 'to edit');
    await Promise.all([page.waitForURL(/\/snippets\/\d+\/$/), page.click('#create-form button[type=submit]')]);
    const [created] = (await api().get('/snippets/').expect(200)).body as { id: number }[];
    await page.goto(`${h.base}/snippets/${created!.id}/edit/`);
    await page.evaluate(() => document.querySelector('#edit-form input[name=csrfmiddlewaretoken]')!.remove());
    await page.fill('#edit-form-code', 'edited with the cookie');
    await Promise.all([
      page.waitForURL(`${h.base}/snippets/${created!.id}/`),
      page.click('#edit-form button[type=submit]'),
    ]);
    expect((await api().get(`/snippets/${created!.id}/`).expect(200)).body.code).to.equal('edited with the cookie');
    expect(problems).to.deep.equal([]);
  });

  it('a create form whose CSRF token was removed is refused 403 "CSRF Failed" and stores nothing', async () => {
    const page = await h.page();
    await logIn(page, h.base, 'alice', '/snippets/new/');
    await page.fill('#create-form-code', 'no token');
    await page.evaluate(() => document.querySelector('#create-form input[name=csrfmiddlewaretoken]')!.remove());
    await Promise.all([page.waitForLoadState('load'), page.click('#create-form button[type=submit]')]);
    expect(await page.locator('.response .headers').textContent()).to.include('HTTP 403');
    expect(await page.locator('.response').textContent()).to.include('CSRF Failed');
    expect((await api().get('/snippets/').expect(200)).body).to.deep.equal([]);
  });
});
