// The embed view in Chromium: another site's page frames /snippets/<pk>/embed/ and shows the code, while the snippet
// page in the same kind of frame is refused (frame-ancestors 'none', X-Frame-Options: DENY). axe-core's check of it is
// test/browser/accessibility.test.ts's.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { useBrowser } from '../support/browser';
import { createSnippet } from '../support/http';

describe('the embed view in Chromium', function () {
  this.timeout(600_000);
  const h = useBrowser();
  let id: number;

  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    id = (await createSnippet('alice', { title: 'framed', code: 'def f():\n    return 1\n', language: 'python' })).id;
  });

  it('is shown in another site’s frame, while the snippet page is refused there', async () => {
    // Another origin (its own port) serves a page framing both; a routed page would count as a public site, which
    // Chromium's local network access checks keep from framing 127.0.0.1 at all.
    const framer = http.createServer((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<!DOCTYPE html><title>framer</title>
<iframe name="embed" src="${h.base}/snippets/${id}/embed/"></iframe>
<iframe name="page" src="${h.base}/snippets/${id}/"></iframe>`),
    );
    await new Promise<void>((r) => framer.listen(0, '127.0.0.1', r));
    const page = await h.page();
    const refused: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') refused.push(msg.text());
    });
    await page.goto(`http://127.0.0.1:${(framer.address() as AddressInfo).port}/`, { waitUntil: 'load' });
    const embed = page.frameLocator('iframe[name=embed]');
    expect(await embed.locator('#snippet-link').textContent()).to.equal('framed');
    expect(await embed.locator('pre.code .row').count()).to.equal(2);
    expect(await embed.locator('pre.code .hljs-keyword').first().textContent()).to.equal('def');
    const framedPage = page.frame({ name: 'page' })!;
    expect(await framedPage.locator('.snippet-head').count(), 'the snippet page is not rendered in a frame').to.equal(
      0,
    );
    expect(refused.join('\n')).to.match(/frame-ancestors|X-Frame-Options/);
    await new Promise((r) => framer.close(r));
  });

  it('the snippet page offers the embed code, and copies it', async () => {
    const page = await h.page({ permissions: ['clipboard-read', 'clipboard-write'] });
    await page.goto(`${h.base}/snippets/${id}/`);
    await page.click('#embed summary');
    await page.click('#copy-embed');
    await page.locator('#embed-status', { hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(
      `<iframe src="${h.base}/snippets/${id}/embed/" title="framed" width="100%" height="320" style="border:0" loading="lazy"></iframe>`,
    );
  });
});
