// `npm run screenshots [dir]`: PNGs of the snippet page, the paste page and the list, light and dark, on a desktop
// and on a 390 px phone, in headless Chromium (README shows them; default dir docs/screenshots).
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { createApp } from '../server/app';
import { createUser } from '../src/auth/users';
import { loadConfig } from '../src/config';
import { createRuntime } from '../src/runtime';
import { migrate } from '../src/store/migrate';

const SAMPLES = [
  {
    title: 'Fibonacci',
    language: 'python',
    style: 'friendly',
    linenos: true,
    code: 'def fib(n):\n    """The n-th Fibonacci number."""\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n\nprint([fib(i) for i in range(10)])\n',
  },
  {
    title: 'Debounce',
    language: 'typescript',
    style: 'monokai',
    linenos: false,
    code: 'export function debounce<T extends unknown[]>(fn: (...args: T) => void, ms = 200) {\n  let timer: ReturnType<typeof setTimeout> | undefined;\n  return (...args: T) => {\n    clearTimeout(timer);\n    timer = setTimeout(() => fn(...args), ms);\n  };\n}\n',
  },
];

async function main(dir: string): Promise<void> {
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: 'sqlite::memory:',
    LOG_LEVEL: 'warn',
    SECRET_KEY: randomBytes(32).toString('hex'),
  });
  const runtime = createRuntime(config);
  await migrate(runtime.store);
  await createUser(runtime.store, 'alice', 'alicepass', { iterations: 1000 });
  const server = http.createServer(createApp(runtime));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const auth = `Basic ${Buffer.from('alice:alicepass').toString('base64')}`;
  for (const s of SAMPLES) {
    await fetch(`${base}/snippets/`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(s),
    });
  }
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  mkdirSync(dir, { recursive: true });
  const screens = [
    ['desktop', { width: 1100, height: 760 }],
    ['phone', { width: 390, height: 844 }],
  ] as const;
  for (const [device, viewport] of screens) {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({
        viewport,
        colorScheme,
        deviceScaleFactor: 1,
        extraHTTPHeaders: { Authorization: auth },
      });
      const page = await context.newPage();
      for (const [name, path] of [
        ['snippet', '/snippets/1/#L4'],
        ['paste', '/snippets/new/'],
        ['list', '/snippets/'],
      ]) {
        await page.goto(base + path);
        const file = `${dir}/${name}-${device}-${colorScheme}.png`;
        await page.screenshot({ path: file });
        console.log(file);
      }
      await context.close();
    }
  }
  await browser.close();
  server.closeAllConnections();
  server.close();
  await runtime.close();
}

main(process.argv[2] ?? 'docs/screenshots').catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
