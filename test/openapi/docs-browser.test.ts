// /docs in headless Chromium: Swagger UI renders every operation and runs a request, with no CSP violation or outside request.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import type { Browser } from 'playwright-core';
import { openapiRouter } from '../../server/openapi/routes';
import { securityHeaders } from '../../server/security-headers';
import { fileBrowser, freshPage, releaseBrowser, watch } from '../support/browser';
import { makeUser, resetDatabase } from '../support/db';
import { app } from '../support/http';
import { fetchDocument } from './support';

describe('/docs in Chromium', function () {
  this.timeout(600_000);
  let server: http.Server;
  let browser: Browser;
  let base: string;

  before(async () => {
    // The docs router in front of the real app, as app.ts will mount it, so "Try it out" reaches the REST facade.
    const front = express();
    front.use(securityHeaders);
    front.use(openapiRouter());
    front.use(app());
    server = http.createServer(front);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await fileBrowser();
  });
  after(async () => {
    if (browser) await releaseBrowser(browser);
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  it('renders every operation and runs GET /users/ from "Try it out"', async () => {
    const page = await freshPage(browser);
    const { problems } = watch(page);
    const outside: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(base) && !req.url().startsWith('data:')) outside.push(req.url());
    });

    const doc = await fetchDocument();
    expect((await page.goto(`${base}/docs`))?.status()).to.equal(200);
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).to.equal(
      Object.values(doc.paths ?? {}).flatMap((item) => Object.keys(item).filter((k) => k !== 'description')).length,
    );
    expect(await page.locator('.opblock-summary-path').allTextContents()).to.include.members([
      '/snippets/',
      '/snippets/{id}/',
      '/users/',
      '/users/{id}/',
      '/snippets/{id}/raw/',
      '/api-token-auth/',
      '/oauth2/access_token/',
      '/healthz',
    ]);

    const users = page.locator('.opblock-get', { has: page.locator('[data-path="/users/"]') });
    await users.locator('.opblock-summary').click();
    await users.locator('.try-out__btn').click();
    await users.locator('.execute').click();
    await users.locator('.live-responses-table tbody .response-col_status').first().waitFor();
    expect(
      (await users.locator('.live-responses-table tbody .response-col_status').first().textContent())?.trim(),
    ).to.equal('200');
    expect(await users.locator('.live-responses-table').textContent()).to.include('alice');

    expect(problems).to.deep.equal([]);
    expect(outside).to.deep.equal([]);
    await page.context().close();
  });
});
