// `npm run bench:writes`: the write rates alone (POST and PUT with Token) on SQLite or BENCH_DATABASE_URL, one process
// or WEB_CONCURRENCY; on SQLite also how much the database file grows per revision of the bench's fixture snippets.
// Run it on two builds (before and after a change to the writes) on the same machine to compare them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { apiToken } from './credentials';
import { openEngine, uniqueUsername } from './engine';
import { runScenario, type Scenario } from './load';
import { cli, ROOT, startService, stop, waitForHttp } from './service';
import { markdownTable } from './table';
import { exitWith } from './exit-with';

const PORT = 18706;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/** Snippets the spread PUTs go to in turn. */
const SPREAD = 100;
/** Saves per fixture snippet for the growth figure. */
const SAVES = 20;

async function post(url: string, token: string, method: string, body: unknown): Promise<{ id: number }> {
  const res = await fetch(url, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Token ${token}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30000),
  });
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: number };
}

/** The SQLite file's size with its write-ahead log folded in. */
async function checkpointedSize(file: string): Promise<number> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
  await new Promise<void>((resolve, reject) =>
    db.run('PRAGMA wal_checkpoint(TRUNCATE)', (err) => (err ? reject(err) : resolve())),
  );
  await new Promise((r) => db.close(r));
  return statSync(file).size;
}

async function main(): Promise<number> {
  const engine = await openEngine();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: engine.url,
    SECRET_KEY: 'bench-secret-key-bench-secret-key-bench',
    PORT: String(PORT),
    LOG_LEVEL: 'warn',
    THROTTLE_ANON: '',
    THROTTLE_USER: '',
  };
  const base = `http://127.0.0.1:${PORT}`;
  const username = uniqueUsername();
  const processes = Number(process.env.WEB_CONCURRENCY || 1);
  let service = undefined as ReturnType<typeof startService> | undefined;
  try {
    cli(env, 'migrate');
    cli(env, 'createuser', username, '--password', 'benchpass');
    service = startService(env);
    await waitForHttp(`${base}/snippets/?limit=1`);
    const token = await apiToken(base, username, 'benchpass');
    const target = await post(`${base}/snippets/`, token, 'POST', { code: 'print(0)\n' });
    // PUTs to one snippet wait for each other's row lock on MariaDB; PUTs to many in turn do not.
    const spread: number[] = [];
    for (let i = 0; i < SPREAD; i++)
      spread.push((await post(`${base}/snippets/`, token, 'POST', { code: `print(${i})\n` })).id);
    let turn = 0;
    const body = JSON.stringify({ title: 'bench', code: 'print("hello")\n', language: 'python' });
    const headers = { 'Content-Type': 'application/json', Authorization: `Token ${token}` };
    const scenarios: Scenario[] = [
      { name: 'POST /snippets/ Token', url: `${base}/snippets/`, method: 'POST', headers, body },
      { name: 'PUT /snippets/<pk>/ Token', url: `${base}/snippets/${target.id}/`, method: 'PUT', headers, body },
      {
        name: `PUT /snippets/<pk>/ Token, ${SPREAD} snippets in turn`,
        url: `${base}/snippets/${target.id}/`,
        method: 'PUT',
        headers,
        body,
        requests: [
          { method: 'PUT', setupRequest: (req) => ({ ...req, path: `/snippets/${spread[turn++ % SPREAD]}/` }) },
        ],
      },
    ];
    const rows = [['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors']];
    for (const s of scenarios) {
      process.stderr.write(`bench: ${s.name} (${DURATION} s)…\n`);
      const r = await runScenario(s, [service.pid!], { connections: CONNECTIONS, duration: DURATION });
      rows.push([r.name, r.rps.toFixed(0), String(r.p50), String(r.p99), String(r.errors)]);
    }
    const revisions = existsRevisions() ? 'with revisions' : 'without revisions';
    console.log(
      `\nWrites, ${revisions}: ${engine.name}, ${processes} process${processes > 1 ? 'es' : ''}, ${CONNECTIONS} connections, ${DURATION} s each, node ${process.version}\n`,
    );
    console.log(markdownTable(rows));

    const file = engine.url.startsWith('sqlite:') ? engine.url.slice('sqlite:'.length) : undefined;
    if (file) {
      // Growth per save of the fixtures: each saved SAVES times with a line changed, sizes taken with the service stopped.
      const fixtures = readdirSync(path.join(ROOT, 'bench/fixtures')).map((f) =>
        readFileSync(path.join(ROOT, 'bench/fixtures', f), 'utf8'),
      );
      const ids: number[] = [];
      for (const code of fixtures) ids.push((await post(`${base}/snippets/`, token, 'POST', { code })).id);
      await stop(service);
      const before = await checkpointedSize(file);
      service = startService(env);
      await waitForHttp(`${base}/snippets/?limit=1`);
      for (let n = 1; n <= SAVES; n++) {
        for (const [i, code] of fixtures.entries())
          await post(`${base}/snippets/${ids[i]}/`, token, 'PUT', { code: `${code}# save ${n}\n` });
      }
      await stop(service);
      service = undefined;
      const after = await checkpointedSize(file);
      const saves = SAVES * fixtures.length;
      const meanCode = fixtures.reduce((n, c) => n + Buffer.byteLength(c), 0) / fixtures.length;
      console.log(
        `\nSQLite file growth over ${saves} saves of the ${fixtures.length} fixture snippets (mean code ${meanCode.toFixed(0)} bytes): ` +
          `${((after - before) / saves).toFixed(0)} bytes per save (${before} → ${after} bytes)`,
      );
    }
    return 0;
  } finally {
    if (service) await stop(service);
    await engine.close();
  }
}

/** Whether the built service stores revisions (its migrations include them). */
function existsRevisions(): boolean {
  try {
    return readdirSync(path.join(ROOT, 'dist/src/migrations')).some((f) => f.includes('revisions'));
  } catch {
    return false;
  }
}

exitWith(main);
