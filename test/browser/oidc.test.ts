// A person in Chromium signs in with an OpenID Connect provider (oidc-provider, test/support/oidc.ts, on a port of its
// own): the login page's button, the provider, the callback, and back on the list page signed in, creating a snippet
// through the form (the session's CSRF token in it). test/auth/oidc.test.ts covers the refusals.
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { resetDatabase } from '../support/db';
import { fileBrowser, freshPage, releaseBrowser, watch } from '../support/browser';
import { api, app } from '../support/http';
import { serverFor, startProvider, type TestProvider } from '../support/oidc';

describe('OpenID Connect sign-in in Chromium', function () {
  this.timeout(600_000);
  let site: Awaited<ReturnType<typeof serverFor>>;
  let provider: TestProvider;
  let browser: Browser;

  before(async () => {
    site = await serverFor();
    provider = await startProvider([`${site.base}/api-auth/oidc/callback/`]);
    browser = await fileBrowser();
  });
  after(async () => {
    if (browser) await releaseBrowser(browser);
    await provider?.close();
    await site?.close();
  });
  beforeEach(async () => {
    await resetDatabase();
    site.use(app(provider.env));
  });

  it('signs in with the button, lands back where it started, and writes through the form', async () => {
    provider.signInAs('sub-alice', { preferred_username: 'alice' });
    const page = await freshPage(browser);
    const { problems } = watch(page);
    await page.goto(`${site.base}/snippets/`);
    await page.click('#login');
    await Promise.all([page.waitForURL(`${site.base}/snippets/`), page.click('#oidc-login')]);
    expect(await page.locator('.navbar .user').textContent()).to.equal('alice');

    // The paste form, one click away; a save lands on the new snippet's page (issue 29's paste flow).
    await page.click('.navbar a[href$="/snippets/new/"]');
    await page.fill('#create-form-code', 'print("signed in")');
    await Promise.all([page.waitForURL(/\/snippets\/\d+\/$/), page.click('#create-form button[type=submit]')]);
    const [created] = (await api().get('/snippets/').expect(200)).body as { owner: string; code: string }[];
    expect(created).to.include({ owner: 'alice', code: 'print("signed in")' });

    // A second sign-in after logging out finds the same user.
    await page.click('#logout');
    await page.goto(`${site.base}/api-auth/login/?next=/snippets/`);
    await Promise.all([page.waitForURL(`${site.base}/snippets/`), page.click('#oidc-login')]);
    expect(await page.locator('.navbar .user').textContent()).to.equal('alice');
    expect(problems).to.deep.equal([]);
    await page.context().close();
  });
});
