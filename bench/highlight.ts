// `npm run bench:highlight`: highlight.js throughput on realistic code, and adversarial input in every language under the pool's deadline.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Presets, SingleBar } from 'cli-progress';
import hljs from 'highlight.js';
import { Highlighter, renderPlain } from '../src/highlight';
import { markdownTable } from './table';

const FIXTURES = path.join(__dirname, 'fixtures'); // <highlight.js language>.txt, ~200 lines each
const SECONDS = Number(process.env.BENCH_SECONDS ?? 1); // measured time per language, after a warm-up
const TIMEOUT_MS = Number(process.env.HIGHLIGHT_TIMEOUT_MS ?? 2000);
const WORKERS = Number(process.env.HIGHLIGHT_WORKERS ?? os.availableParallelism());
const MARGIN_MS = Number(process.env.BENCH_MARGIN_MS ?? 1000); // allowed above the deadline
const ADVERSARIAL = process.env.BENCH_ADVERSARIAL !== '0';
const SIZE = 100_000; // the longest code the API accepts

/** `head`, then `unit` repeated, cut to exactly SIZE characters. */
const fill = (head: string, unit: string): string => (head + unit.repeat(Math.ceil(SIZE / unit.length))).slice(0, SIZE);

const INPUTS: [name: string, code: string][] = [
  ['a…', fill('', 'a')],
  ['"a… (unbalanced)', fill('"', 'a')],
  ["'a… (unbalanced)", fill("'", 'a')],
  ['`a… (unbalanced)', fill('`', 'a')],
  ['/*a… (open comment)', fill('/*', 'a')],
  ['<!--a… (open comment)', fill('<!--', 'a')],
  ['<a b=1 b=1… (open tag)', fill('<a', ' b=1')],
  ['(((…', fill('', '(')],
  ['{{{…', fill('', '{')],
  ['[[[…', fill('', '[')],
  ['\\\\\\…', fill('', '\\')],
  ['x = 1; … (one line)', fill('', 'x = 1; ')],
  ['\\n\\n\\n… (empty lines)', fill('', '\n')],
];

/** BENCH_LANGUAGES=python,java (names or aliases), or every highlight.js language. */
function languages(): string[] {
  const all = hljs.listLanguages();
  const wanted = process.env.BENCH_LANGUAGES?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!wanted?.length) return all;
  return wanted.map((name) => {
    const found = all.find((n) => hljs.getLanguage(n) === hljs.getLanguage(name));
    if (!hljs.getLanguage(name) || !found) throw new Error(`BENCH_LANGUAGES: highlight.js has no language ${name}`);
    return found;
  });
}

/** (a) In-process highlight.js on each fixture: renders/s and MB/s, timed over at least SECONDS. */
function throughput(selected: Set<string>): void {
  const rows = [['language', 'lines', 'KB', 'renders/s', 'MB/s', 'ms/render']];
  for (const file of readdirSync(FIXTURES).sort()) {
    const language = path.basename(file, '.txt');
    if (!selected.has(language)) continue;
    const code = readFileSync(path.join(FIXTURES, file), 'utf8');
    const render = () => hljs.highlight(code, { language, ignoreIllegals: true });
    for (let start = performance.now(); performance.now() - start < 200;) render(); // warm-up: let V8 optimise
    let renders = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < SECONDS * 1000 || renders < 5) {
      render();
      renders++;
      elapsed = performance.now() - start;
    }
    const bytes = Buffer.byteLength(code);
    const perSecond = renders / (elapsed / 1000);
    rows.push([
      language,
      String(code.split('\n').length - 1),
      (bytes / 1024).toFixed(1),
      perSecond.toFixed(0),
      ((bytes * perSecond) / 1e6).toFixed(2),
      (elapsed / renders).toFixed(2),
    ]);
  }
  console.log(`## Throughput: highlight.js ${hljs.versionString} in-process, ${SECONDS} s per language\n`);
  console.log(rows.length > 1 ? markdownTable(rows) : '(no fixture for the selected languages)');
}

interface Timing {
  input: string;
  language: string;
  ms: number;
  /** Past the deadline: the document came back escaped but not highlighted. */
  plain: boolean;
}

/** The real pool, as the service starts it, WORKERS workers under the service's deadline. */
const highlighter = new Highlighter({ workers: WORKERS, timeoutMs: TIMEOUT_MS });

/** One render through the real pool, timed from submission to the stored document. */
async function timeRender(input: string, language: string, code: string): Promise<Timing> {
  const doc = { code, language, style: 'friendly', title: '', linenos: false };
  const start = performance.now();
  const html = await highlighter.render(doc);
  const ms = performance.now() - start;
  // A render that beat the deadline may also be markup-free; only one that took the deadline fell back.
  return { input, language, ms, plain: ms >= TIMEOUT_MS - 1 && html === renderPlain(doc) };
}

/** (b) Every input in every language, WORKERS at a time so no job waits in the queue against its deadline. */
async function adversarial(selected: string[]): Promise<boolean> {
  await Promise.all(
    Array.from({ length: WORKERS }, () =>
      highlighter.render({ code: 'x', language: 'plaintext', style: 'friendly', title: '', linenos: false }),
    ),
  ); // start the workers
  const jobs = INPUTS.flatMap(([input, code]) => selected.map((language) => ({ input, language, code })));
  const bar = new SingleBar(
    {
      format: 'adversarial [{bar}] {value}/{total} renders, {eta_formatted} left, {input} in {language}',
      stream: process.stderr,
      noTTYOutput: true,
      notTTYSchedule: 10000,
    },
    Presets.shades_classic,
  );
  bar.start(jobs.length, 0, { input: '', language: '' });
  const timings: Timing[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        timings.push(await timeRender(job.input, job.language, job.code));
        bar.increment({ input: job.input, language: job.language });
      }
    }),
  );
  bar.stop();

  const rows = [['input (100,000 chars)', 'deadline hits', 'max ms', 'slowest languages (ms, * = fell back to plain)']];
  for (const [input] of INPUTS) {
    const these = timings.filter((t) => t.input === input).sort((a, b) => b.ms - a.ms);
    const slowest = these.slice(0, 5).map((t) => `${t.language} ${t.ms.toFixed(0)}${t.plain ? '*' : ''}`);
    rows.push([input, String(these.filter((t) => t.plain).length), these[0]!.ms.toFixed(0), slowest.join(', ')]);
  }
  const hits = new Map<string, number>();
  for (const t of timings) if (t.plain) hits.set(t.language, (hits.get(t.language) ?? 0) + 1);
  const worst = timings.reduce((a, b) => (b.ms > a.ms ? b : a));
  const limit = TIMEOUT_MS + MARGIN_MS;
  const ok = worst.ms <= limit;
  console.log(
    `\n## Adversarial input: ${selected.length} languages × ${INPUTS.length} inputs through the pool (${WORKERS} workers, deadline ${TIMEOUT_MS} ms)\n`,
  );
  console.log(markdownTable(rows));
  console.log(
    `\n${timings.filter((t) => t.plain).length} of ${timings.length} renders hit the deadline, in ${hits.size} languages:`,
  );
  console.log(
    [...hits]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([l, n]) => `${l} ${n}`)
      .join(', ') || '(none)',
  );
  console.log(
    `max wall time ${worst.ms.toFixed(0)} ms (${worst.language}, ${worst.input}): ${ok ? '≤' : 'ABOVE'} deadline + margin = ${limit} ms`,
  );
  return ok;
}

async function main(): Promise<void> {
  const selected = languages();
  const started = performance.now();
  try {
    throughput(new Set(selected));
    if (ADVERSARIAL && !(await adversarial(selected))) process.exitCode = 1;
  } finally {
    await highlighter.close();
  }
  console.log(`\nbench:highlight took ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
  void highlighter.close();
});
