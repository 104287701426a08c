// Headless Debian Chromium driven by playwright-core, against createApp() listening on an ephemeral port. One Chromium
// per mocha worker process, kept across the files the worker runs (fileBrowser()), a fresh context (own cookies and
// storage) per page: launching the browser is the expensive part, a context is cheap.
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { csrfFrom } from './pages';
import { app } from './http';

const CHROMIUM = '/usr/bin/chromium';

/**
 * How long a page's wait (a locator, a navigation, an event) may last before Playwright calls it a hang. A bound for a
 * hang, not a measure of speed: the tests wait on events, and Playwright's 10 s default failed on a loaded 2-core
 * machine where a page answered in 12 s (issue 32; test/browser/oidc.test.ts, test/browser/snippet-page.test.ts).
 * A missing element then fails after this long: the fast tests (docs/development.md, "Rules broken on purpose") are
 * the ones a mutation should meet first.
 */
export const HANG_MS = 120_000;

export interface Harness {
  browser: Browser;
  base: string;
  /** A page in a fresh context, with the hang bound; closed by closePages() (useBrowser()'s afterEach). */
  page(options?: BrowserContextOptions): Promise<Page>;
  closePages(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The page tests' set-up, called in their describe(): its hooks start Chromium and the app before the file's tests
 * (before the describe's own before hooks, which may seed data), close each test's pages after it, and close both after
 * the file. The harness it returns is usable from the first hook on.
 */
export function useBrowser(overrides: Record<string, string> = {}): Harness {
  let started: Harness | undefined;
  const harness = (): Harness => {
    if (!started)
      throw new Error('useBrowser(): Chromium starts in its before hook; use the harness in a hook or a test');
    return started;
  };
  before(async () => {
    started = await startBrowser(overrides);
  });
  afterEach(async () => started?.closePages());
  after(async () => started?.close());
  return {
    get browser() {
      return harness().browser;
    },
    get base() {
      return harness().base;
    },
    page: (options) => harness().page(options),
    closePages: () => harness().closePages(),
    close: () => harness().close(),
  };
}

async function startBrowser(overrides: Record<string, string> = {}): Promise<Harness> {
  const server = http.createServer(app(overrides));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const browser = await fileBrowser();
  let contexts: BrowserContext[] = [];
  return {
    browser,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async page(options = {}) {
      const page = await freshPage(browser, options);
      contexts.push(page.context());
      return page;
    },
    async closePages() {
      await Promise.all(contexts.map((c) => c.close()));
      contexts = [];
    },
    async close() {
      await Promise.all(contexts.map((c) => c.close()));
      await releaseBrowser(browser);
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** A page in a context of its own, whose waits are bounded by HANG_MS; the caller closes page.context(). */
export async function freshPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(HANG_MS);
  context.setDefaultNavigationTimeout(HANG_MS);
  return context.newPage();
}

/**
 * Logs the page's context in as `username` through the login form's POST, sent by the context's own request API (it
 * shares the context's cookies): the session and csrftoken cookies a person's login leaves, without rendering the
 * login page. The form itself is driven in test/browser/session-flow.test.ts. Then opens `next`, when given.
 */
export async function logIn(page: Page, base: string, username: string, next?: string): Promise<void> {
  const request = page.context().request;
  const form = await request.get(`${base}/api-auth/login/`);
  const res = await request.post(`${base}/api-auth/login/`, {
    form: { username, password: `${username}pass`, csrfmiddlewaretoken: csrfFrom(await form.text()) },
    maxRedirects: 0,
  });
  if (res.status() !== 302) throw new Error(`login as ${username} answered ${res.status()}`);
  if (next) await page.goto(base + next);
}

/** The worker's Chromium while its files run, when mocha runs them in worker processes (--parallel, .mocharc.json). */
let workerBrowser: Promise<Browser> | undefined;

/**
 * The Chromium a test file drives; releaseBrowser() after the file. Under mocha's --parallel each worker process runs
 * file after file (mocha's lib/nodejs/worker.cjs, a workerpool worker: `MOCHA_WORKER_ID` in its environment), and
 * there one Chromium serves them all: launched by the first, closed when mocha ends the pool (workerpool's onTerminate,
 * awaited before the worker exits; workerpool kills a worker still there 1 s later, and Chromium then ends with its
 * pipe). A launch and close cost 1.1 CPU-s on their own (2026-11-26, load 17; docs/development.md, "Tests"). Without
 * --parallel (`--no-parallel`, scripts/file-cpu.sh) a file launches its own and closes it after its tests, as before.
 */
export function fileBrowser(): Promise<Browser> {
  if (process.env.MOCHA_WORKER_ID === undefined) return launchChromium();
  if (!workerBrowser) {
    const launched = launchChromium();
    workerBrowser = launched;
    launched.then(
      (browser) => {
        browser.on('disconnected', () => {
          if (workerBrowser === launched) workerBrowser = undefined;
        });
        // workerpool.worker(methods, { onTerminate }): the workerpool mocha's worker runs on, found from mocha.
        const workerpool = createRequire(require.resolve('mocha'))('workerpool') as {
          worker(methods: object, options: { onTerminate(): Promise<void> }): void;
        };
        workerpool.worker({}, { onTerminate: () => browser.close() });
      },
      () => {
        if (workerBrowser === launched) workerBrowser = undefined;
      },
    );
  }
  return workerBrowser;
}

/** After a file: the browser closed, or, the worker's, left to the next file with none of this file's contexts. */
export async function releaseBrowser(browser: Browser): Promise<void> {
  if (workerBrowser && browser === (await workerBrowser)) await Promise.all(browser.contexts().map((c) => c.close()));
  else await browser.close();
}

/** Debian's Chromium, headless, with nothing of its own going to the network. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: HANG_MS,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-quic',
      '--disable-sync',
      // No GPU process: playwright-core's own switches (chromiumSwitches, lib/coreBundle.js) add
      // --enable-unsafe-swiftshader, a software GL that pages without WebGL or canvas do not need, and which cost 13-15%
      // of the page tests' CPU (2026-11-26, quiet machine, test/browser/** and /docs: 178-189 CPU-s, 154 with these two).
      // Pages are then composited in software by the browser process; what they render and how is unchanged.
      '--disable-gpu-compositing',
      '--disable-software-rasterizer',
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

/**
 * axe-core's engine (axe.min.js, the file @axe-core/playwright injected before axePage()): given to a context once
 * (axePage()), so that each document the context opens has `window.axe` from its start.
 */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * A page in a fresh context (h.page(options)) whose every document starts with axe-core loaded, for seriousViolations().
 * AxeBuilder.analyze() sends axe's 650 kB source to the page twice per analysis (page.evaluate, then its legacy mode's
 * inject()), which took 0.75–0.9 s of a 1.2–1.4 s analysis of the paste form (2026-11-26, load average 8); an init
 * script is sent to Chromium once per context and runs as each document opens (Page.addScriptToEvaluateOnNewDocument).
 */
export async function axePage(harness: Pick<Harness, 'page'>, options?: BrowserContextOptions): Promise<Page> {
  const page = await harness.page(options);
  await page.context().addInitScript({ content: AXE_SOURCE });
  return page;
}

/**
 * The page's serious and critical axe-core violations, a line each: axe.run() on the document, with every rule axe runs
 * by default, as @axe-core/playwright's legacy mode ran it (its analyzePage), asking for violations only (resultTypes).
 * Our pages have no frame (a cross-origin one would be reported by axe's frame-tested rule). The page comes from
 * axePage(); a page without axe is given it here.
 */
export async function seriousViolations(page: Page, path: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as { axe: typeof import('axe-core') };
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${path}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
