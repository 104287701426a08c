// The big-list run of `npm run bench`: GET /snippets/ over 100,000 snippets (~1 GB of code): time to first byte and RSS growth.
import http from 'node:http';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { rssMb } from './load';
import { cli, startService, stop, waitForHttp } from './service';

const COUNT = Number(process.env.BENCH_LIST_SNIPPETS ?? 100000);
const CODE_CHARS = Number(process.env.BENCH_CODE_CHARS ?? 10000);
const PORT = 18702;
const STALL_MS = 5000;

function run(db: sqlite3.Database, sql: string, params: unknown[] = []): Promise<void> {
  return new Promise((resolve, reject) => db.run(sql, params, (err) => (err ? reject(err) : resolve())));
}

/** Rows written straight into the file, as an operator's existing data would be (rendering 100,000 documents is not what is measured). */
async function seed(file: string): Promise<void> {
  const db = new sqlite3.Database(file);
  await run(db, 'PRAGMA journal_mode = WAL');
  await run(db, 'BEGIN');
  const line = 'def handler(request, *args, **kwargs):  # a realistic line of code\n';
  const code = line.repeat(Math.ceil(CODE_CHARS / line.length)).slice(0, CODE_CHARS);
  const stmt = db.prepare(
    "INSERT INTO snippets (created, title, code, linenos, language, style, highlighted, owner_id) VALUES (?, ?, ?, 0, 'python', 'friendly', '<!DOCTYPE html>', 1)",
  );
  const start = Date.parse('2026-01-01T00:00:00Z');
  for (let i = 0; i < COUNT; i++) {
    await new Promise<void>((resolve, reject) =>
      stmt.run(
        new Date(start + i * 1000).toISOString().replace('T', ' ').replace('Z', ' +00:00'),
        `snippet ${i}`,
        code,
        (err: Error | null) => (err ? reject(err) : resolve()),
      ),
    );
    if (i % 20000 === 0) process.stderr.write(`bench: seeding the big list… ${i}/${COUNT}\n`);
  }
  await new Promise((r) => stmt.finalize(r));
  await run(db, 'COMMIT');
  await new Promise((r) => db.close(r));
}

export async function listRun(dir: string, baseEnv: NodeJS.ProcessEnv): Promise<string> {
  const file = path.join(dir, 'big.sqlite3');
  const env = { ...baseEnv, DATABASE_URL: `sqlite:${file}`, PORT: String(PORT) };
  cli(env, 'migrate');
  cli(env, 'createuser', 'owner', '--password', 'ownerpass');
  await seed(file);
  const service = startService(env);
  await waitForHttp(`http://127.0.0.1:${PORT}/users/`);
  const before = rssMb(service.pid!);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(service.pid!))), 50);
  // Twice: memory that creeps up from one long list to the next would show in the second pass's peak.
  const first = await fetchList();
  const firstPeak = peak;
  await fetchList();
  const bothPeak = peak;
  // Then a client that stops reading for a while: what the server buffers for it shows in this pass's peak.
  peak = rssMb(service.pid!);
  const stalledFrom = peak;
  await fetchList(STALL_MS);
  clearInterval(timer);
  await stop(service);
  const { ttfbMs, bytes, totalMs } = first;
  return [
    '',
    `GET /snippets/ with ${COUNT} snippets of ${CODE_CHARS} characters (${(bytes / 1e9).toFixed(2)} GB of JSON), twice:`,
    `  time to first byte ${ttfbMs.toFixed(1)} ms, whole list ${(totalMs / 1000).toFixed(1)} s (${(bytes / 1e6 / (totalMs / 1000)).toFixed(0)} MB/s)`,
    `  RSS before ${before.toFixed(0)} MB, peak ${firstPeak.toFixed(0)} MB over the first list and ${bothPeak.toFixed(0)} MB over both: growth ${(bothPeak - before).toFixed(0)} MB`,
    `  a third time by a client that stops reading for ${STALL_MS / 1000} s after the first byte: RSS ${stalledFrom.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB`,
  ].join('\n');
}

/** One GET /snippets/ read to the end, after a pause of `stallMs` at the first byte: time to first byte, bytes, and total time. */
function fetchList(stallMs = 0): Promise<{ ttfbMs: number; bytes: number; totalMs: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    http
      .get(`http://127.0.0.1:${PORT}/snippets/`, (res) => {
        const ttfb = Number(process.hrtime.bigint() - started) / 1e6;
        if (stallMs) {
          res.pause();
          setTimeout(() => res.resume(), stallMs);
        }
        let n = 0;
        res.on('data', (chunk: Buffer) => (n += chunk.length));
        res.on('end', () =>
          resolve({ ttfbMs: ttfb, bytes: n, totalMs: Number(process.hrtime.bigint() - started) / 1e6 }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}
