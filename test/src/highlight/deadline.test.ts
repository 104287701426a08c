// The worker pool's deadline: adversarial input never stalls the event loop, and past the deadline the code is stored plain.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { expect } from 'chai';
import { closeHighlighter, configureHighlighter, renderHighlighted } from '../../../src/highlight';
import { makeUser, resetDatabase } from '../../support/db';
import { api, basic } from '../../support/http';

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
  this.timeout(120000);
  const TIMEOUT = 2000;
  before(() => configureHighlighter({ timeoutMs: TIMEOUT }));
  after(() => closeHighlighter());

  it('renders the escaped, unhighlighted document past the deadline, within the deadline plus a margin', async () => {
    configureHighlighter({ timeoutMs: 200 });
    const start = Date.now();
    const html = await renderHighlighted({ code: SLOWEST_JAVA, language: 'java', style: 'friendly', title: 't', linenos: true });
    expect(Date.now() - start).to.be.below(200 + 1000);
    expect(html).to.include('<table class="highlighttable">').and.include(`int ${'a'.repeat(50)}`);
    expect(html).not.to.include('<span class="hljs-');
    expect(html.trimEnd()).to.match(/<\/html>$/);
    configureHighlighter({ timeoutMs: TIMEOUT });
  });

  it('POST /snippets/ of adversarial code in the slowest languages keeps the event loop under 50 ms and answers 201 in time', async () => {
    await resetDatabase();
    await makeUser('alice');
    // Warm the app and the worker pool, and serialise the bodies, before measuring: the histogram is for the server.
    await api().post('/snippets/').set('Authorization', basic('alice')).send({ code: 'x = 1', language: 'python' }).expect(201);
    const bodies = SLOW.map(([language, code]) => [language, JSON.stringify({ code, language, linenos: true })] as const);
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    const results = await Promise.all(
      bodies.map(async ([language, body]) => {
        const start = Date.now();
        const res = await api().post('/snippets/').set('Authorization', basic('alice')).set('Content-Type', 'application/json').send(body);
        return { language, status: res.status, ms: Date.now() - start, id: res.body.id as number };
      }),
    );
    histogram.disable();
    const maxDelayMs = histogram.max / 1e6;
    expect(maxDelayMs, 'event loop delay').to.be.below(50);
    for (const r of results) {
      expect(r.status, r.language).to.equal(201);
      // Deadlines count from submission, so even queued saves answer within the deadline plus a margin.
      expect(r.ms, r.language).to.be.below(TIMEOUT + 1500);
      const page = await api().get(`/snippets/${r.id}/highlight/`).expect(200);
      expect(page.text.trimEnd()).to.match(/<\/html>$/);
      expect(page.text).to.include('<table class="highlighttable">');
    }
  });
});
