// Headless Debian Chromium driven by playwright-core, against createApp() listening on an ephemeral port.
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { app } from './http';

const CHROMIUM = '/usr/bin/chromium';

export interface Harness {
  browser: Browser;
  base: string;
  close(): Promise<void>;
}

export async function startBrowser(overrides: Record<string, string> = {}): Promise<Harness> {
  const server = http.createServer(app(overrides));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const browser = await launchChromium();
  return {
    browser,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await browser.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Debian's Chromium, headless, with nothing of its own going to the network. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-quic',
      '--disable-sync',
    ],
  });
}

/** Everything a page reports that would mean it misbehaved: console errors, uncaught errors, dialogs. */
export function watch(page: Page): { problems: string[] } {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('dialog', (dialog) => {
    if (dialog.type() !== 'confirm') problems.push(`dialog ${dialog.type()}: ${dialog.message()}`);
    void dialog.accept();
  });
  return { problems };
}
