// The worker pool's deadline: adversarial input never stalls the event loop, and past the deadline the code is stored plain.
import { expect } from 'chai';
import supertest from 'supertest';
import { createUser } from '../../../src/auth/users';
import { Highlighter } from '../../../src/highlight';
import { resetDatabase } from '../../support/db';
import { basic } from '../../support/http';
import { serviceInProcess, type InProcessService } from '../../support/in-process';

/** Resolves once `highlighter` has been handed `n` documents (the saves are in its pool). */
function rendersStarted(highlighter: Highlighter, n: number): Promise<void> {
  const render = highlighter.render.bind(highlighter);
  let started = 0;
  return new Promise((resolve) => {
    highlighter.render = (input) => {
      if (++started === n) {
        Reflect.deleteProperty(highlighter, 'render');
        resolve();
      }
      return render(input);
    };
  });
}

const SLOW = [
  ['java', `'${'a'.repeat(100000 - 1)}`],
  ['ini', `'${'a'.repeat(100000 - 1)}`],
  ['javascript', `'${'a'.repeat(100000 - 1)}`],
  ['typescript', `"${'a'.repeat(100000 - 1)}`],
  ['nix', `'${'a'.repeat(100000 - 1)}`],
] as const;
/** ~45 s in highlight.js' Java grammar (bench:highlight), with a keyword that would be a span if it were highlighted. */
const SLOWEST_JAVA = `int ${'a'.repeat(100000 - 4)}`;

describe('highlighting deadline', function () {
  this.timeout(600_000);
  // The service of the saves below, with workers of its own and a deadline of 2 s: under the suite's 10 s
  // (support/config.ts) these inputs held the two workers of the file's process for ~30 s of CPU (ini, nix and the
  // slowest Java each ran to the deadline, 2026-11-26). The slowest Java runs to 2 s as it ran to 10 s: the same rule.
  let service: InProcessService;
  const api = () => supertest(service.base);
  before(async () => {
    service = await serviceInProcess({ HIGHLIGHT_TIMEOUT_MS: '2000' });
  });
  after(() => service?.close());

  it('renders the escaped, unhighlighted document past the deadline, long before the grammar would finish', async () => {
    const highlighter = new Highlighter({ timeoutMs: 200 });
    const html = await highlighter.render({
      code: SLOWEST_JAVA,
      language: 'java',
      style: 'friendly',
      title: 't',
      linenos: true,
    });
    // Had the grammar run to its end (about 45 s), the keyword would be a span: no clock is needed to tell.
    expect(html)
      .to.include('<table class="highlighttable">')
      .and.include(`int ${'a'.repeat(50)}`);
    expect(html).not.to.include('<span class="hljs-');
    expect(html.trimEnd()).to.match(/<\/html>$/);
    await highlighter.close();
  });

  it('POST /snippets/ of adversarial code in the slowest languages answers 201, and the event loop answers other requests meanwhile', async () => {
    await resetDatabase();
    await createUser(service.runtime.store, 'alice', 'alicepass', { iterations: 1000 });
    // Warm the app and the worker pool, and serialise the bodies, before measuring: the histogram is for the server.
    await api()
      .post('/snippets/')
      .set('Authorization', basic('alice'))
      .send({ code: 'x = 1', language: 'python' })
      .expect(201);
    const bodies = [...SLOW, ['java', SLOWEST_JAVA] as const].map(
      ([language, code]) => [language, JSON.stringify({ code, language, linenos: true })] as const,
    );
    // Order, not time: the slowest Java input renders until the deadline, so if a grammar ran on the event loop no
    // other request could be answered before it. (How long the loop stalls is for npm run bench:highlight.)
    const order: string[] = [];
    const rendering = rendersStarted(service.runtime.highlighter, bodies.length);
    const posts = Promise.all(
      bodies.map(async ([language, body], i) => {
        const res = await api()
          .post('/snippets/')
          .set('Authorization', basic('alice'))
          .set('Content-Type', 'application/json')
          .send(body);
        order.push(i === bodies.length - 1 ? 'slowest' : 'post');
        return { language, status: res.status, id: res.body.id as number };
      }),
    );
    // Every save is in the pool, the slowest Java with it: the GET is asked while they render.
    await rendering;
    await api().get('/healthz').expect(200);
    order.push('get');
    const results = await posts;
    expect(order.indexOf('get')).to.be.below(order.indexOf('slowest'));
    for (const r of results) {
      expect(r.status, r.language).to.equal(201);
      const page = await api().get(`/snippets/${r.id}/highlight/`).expect(200);
      expect(page.text.trimEnd()).to.match(/<\/html>$/);
      expect(page.text).to.include('<table class="highlighttable">');
    }
    // The slowest Java was stored past the deadline, plain: a grammar that ran to its end (on the event loop, where no
    // deadline can stop it, the GET above then waiting for it in line) would have made its keyword a span.
    const slowest = await api()
      .get(`/snippets/${results.at(-1)!.id}/highlight/`)
      .expect(200);
    expect(slowest.text).to.include(`int ${'a'.repeat(50)}`);
    expect(slowest.text).not.to.include('<span class="hljs-');
  });
});
