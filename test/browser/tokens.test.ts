// A person in Chromium manages personal access tokens: the account menu's Tokens page, a token made through its form
// (its key shown once), used by a script, and revoked with its button.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { logIn, useBrowser, watch } from '../support/browser';
import { api } from '../support/http';

describe('the personal access tokens page in Chromium', function () {
  this.timeout(600_000);
  const h = useBrowser();

  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  it('makes a token through the form, shows its key once, and revokes it with its button', async () => {
    const page = await h.page();
    const { problems } = watch(page);
    await logIn(page, h.base, 'alice', '/snippets/');

    await Promise.all([page.waitForURL(`${h.base}/tokens/`), page.click('#tokens-link')]);
    expect(await page.locator('#no-tokens').count()).to.equal(1);
    await page.fill('#token-name', 'CI uploads');
    await page.selectOption('#token-scopes', 'write');
    await Promise.all([page.waitForLoadState('load'), page.click('#token-form button[type=submit]')]);
    expect(await page.locator('.response .headers').textContent()).to.include('HTTP 201 Created');
    const key = (await page.locator('#new-token-key').textContent())!;
    expect(key).to.match(/^snp_/);
    await api().post('/snippets/').set('Authorization', `Bearer ${key}`).send({ code: 'log' }).expect(201);

    await page.goto(`${h.base}/tokens/`);
    expect(await page.content()).not.to.include(key);
    expect(await page.locator('#tokens tbody tr').count()).to.equal(1);
    page.once('dialog', (dialog) => void dialog.accept());
    await Promise.all([page.waitForURL(`${h.base}/tokens/`), page.click('#tokens .revoke-form button')]);
    await page.waitForSelector('#no-tokens');
    await api().get('/snippets/').set('Authorization', `Bearer ${key}`).expect(401);
    expect(problems).to.deep.equal([]);
  });
});
