// `npm run bench`: the built service in its own process on a fresh SQLite database, driven by autocannon from this one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runScenario, type Result, type Scenario } from './load';
import { cli, startBaseline, startService, stop, waitForHttp, withThrottles } from './service';
import { listRun } from './list-run';
import { sessionLogin } from './credentials';
import { mixedScenario } from './mixed';
import { markdownTable } from './table';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const PORT = 18700;
const BASELINE_PORT = 18701;
const SNIPPETS = 100;
const JSON_DETAIL = 'GET /snippets/<pk>/';
const PAGE_DETAIL = 'GET /snippets/<pk>/ page (HTML)';

function table(results: Result[], baseline: number): string {
  const rows = [['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'peak RSS MB', 'vs baseline']];
  results.forEach((r) => {
    rows.push([
      r.name,
      r.rps.toFixed(0),
      String(r.p50),
      String(r.p99),
      String(r.errors),
      r.peakRssMb.toFixed(0),
      `${((r.rps / baseline) * 100).toFixed(0)}%`,
    ]);
  });
  return markdownTable(rows);
}

/** The snippet page's rate and p99 against the JSON detail's of the same snippet, in the same run (issue 29). */
function pageAgainstJson(results: readonly Result[]): string {
  const json = results.find((r) => r.name === JSON_DETAIL);
  const page = results.find((r) => r.name === PAGE_DETAIL);
  if (!json || !page) return '';
  return (
    `Snippet page (HTML) against the JSON detail: ${((page.rps / json.rps) * 100).toFixed(0)}% of its rate ` +
    `(${page.rps.toFixed(0)} against ${json.rps.toFixed(0)} req/s), p99 ${page.p99} ms against ${json.p99} ms.`
  );
}

/** The mixed scenario on the same database, with throttling on: the scenarios above run without it. */
async function mixedPart(env: NodeJS.ProcessEnv, base: string, token: string): Promise<string> {
  const readers = Number(process.env.BENCH_MIXED_READERS ?? 16);
  const writers = Number(process.env.BENCH_MIXED_WRITERS ?? 16);
  const service = startService(withThrottles(env));
  try {
    await waitForHttp(`${base}/snippets/`);
    const session = { cookie: await sessionLogin(base, 'bench', 'benchpass') };
    const { table, checks } = await mixedScenario(
      { base, detailId: 50, token, session },
      { readers, writers, seconds: DURATION },
    );
    return `\nMixed load, ${DURATION} s per phase, ${readers} reader + ${writers} writer connections, THROTTLE_ANON/THROTTLE_USER 1000000/second:\n\n${table}\n\n${checks.join('\n')}`;
  } finally {
    await stop(service);
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'snippets-bench-'));
  const file = path.join(dir, 'bench.sqlite3');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: `sqlite:${file}`,
    SECRET_KEY: 'bench-secret-key-bench-secret-key-bench',
    PORT: String(PORT),
    LOG_LEVEL: 'warn',
    THROTTLE_ANON: '',
    THROTTLE_USER: '',
  };
  const base = `http://127.0.0.1:${PORT}`;
  const basic = `Basic ${Buffer.from('bench:benchpass').toString('base64')}`;
  try {
    cli(env, 'migrate');
    cli(env, 'createuser', 'bench', '--password', 'benchpass'); // the default PBKDF2 cost, as in production
    const service = startService(env);
    await waitForHttp(`${base}/snippets/`);
    const json = { 'Content-Type': 'application/json' };
    for (let i = 0; i < SNIPPETS; i++) {
      const res = await fetch(`${base}/snippets/`, {
        method: 'POST',
        headers: { ...json, Authorization: basic },
        body: JSON.stringify({ title: `snippet ${i}`, code: `def f${i}(x):\n    return x * ${i}\n` }),
      });
      if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
    }
    const tokenRes = await fetch(`${base}/api-token-auth/`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username: 'bench', password: 'benchpass' }),
    });
    const token = tokenRes.ok ? ((await tokenRes.json()) as { token: string }).token : undefined;
    const baselineProc = startBaseline(file, BASELINE_PORT);
    await waitForHttp(`http://127.0.0.1:${BASELINE_PORT}/snippets/1/`);

    const create = JSON.stringify({ title: 'bench', code: 'print("hello")\n', language: 'python' });
    const scenarios: Scenario[] = [
      { name: 'baseline: bare Express GET row', url: `http://127.0.0.1:${BASELINE_PORT}/snippets/50/` },
      { name: JSON_DETAIL, url: `${base}/snippets/50/` },
      // The snippet page people open (server/web/snippet-page.ts), against the JSON detail above (issue 29: at least half its rate).
      { name: PAGE_DETAIL, url: `${base}/snippets/50/`, headers: { Accept: 'text/html' } },
      { name: `GET /snippets/ (${SNIPPETS})`, url: `${base}/snippets/` },
      {
        name: 'POST /snippets/ Basic',
        url: `${base}/snippets/`,
        method: 'POST',
        headers: { ...json, Authorization: basic },
        body: create,
      },
      ...(token
        ? [
            {
              name: 'POST /snippets/ Token',
              url: `${base}/snippets/`,
              method: 'POST' as const,
              headers: { ...json, Authorization: `Token ${token}` },
              body: create,
            },
            {
              name: 'PUT /snippets/<pk>/ Token',
              url: `${base}/snippets/60/`,
              method: 'PUT' as const,
              headers: { ...json, Authorization: `Token ${token}` },
              body: create,
            },
          ]
        : [
            {
              name: 'PUT /snippets/<pk>/ Basic',
              url: `${base}/snippets/60/`,
              method: 'PUT' as const,
              headers: { ...json, Authorization: basic },
              body: create,
            },
          ]),
      { name: 'GET /trpc/snippets.get', url: `${base}/trpc/snippets.get?input=${encodeURIComponent('{"id":50}')}` },
    ];
    const results: Result[] = [];
    for (const s of scenarios) {
      const pid = s.url.includes(String(BASELINE_PORT)) ? baselineProc.pid! : service.pid!;
      process.stderr.write(`bench: ${s.name} (${DURATION} s)…\n`);
      results.push(await runScenario(s, [pid], { connections: CONNECTIONS, duration: DURATION }));
    }
    await stop(baselineProc);
    await stop(service);
    const processes = Number(process.env.WEB_CONCURRENCY || 1);
    console.log(
      `\n${CONNECTIONS} connections, ${DURATION} s each, loopback, SQLite, node ${process.version}, ` +
        `${processes} process${processes > 1 ? 'es' : ''} for the service and for the baseline${token ? '' : ' (no token endpoint: Token scenarios skipped)'}\n`,
    );
    console.log(table(results, results[0]!.rps));
    console.log(`\n${pageAgainstJson(results)}`);
    if (token) console.log(await mixedPart(env, base, token));
    console.log(await listRun(dir, env));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
