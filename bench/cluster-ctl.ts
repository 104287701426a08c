// The cluster scripts/cluster.sh started: its ports, its `ctl` commands, HAProxy's view of it, SQL on each node.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { ROOT } from './service';

export interface Cluster {
  dir: string;
  http: number;
  stats: number;
  mode: 'proxy' | 'direct';
  nodes: Record<string, number>;
  instances: Record<string, { port: number; node: number }>;
}

export function readCluster(file: string): Cluster {
  return JSON.parse(readFileSync(file, 'utf8')) as Cluster;
}

const run = promisify(execFile);

/** `scripts/cluster.sh ctl DIR …`: starting, stopping and killing nodes and instances. */
export async function ctl(c: Cluster, ...args: string[]): Promise<string> {
  const { stdout } = await run(path.join(ROOT, 'scripts/cluster.sh'), ['ctl', c.dir, ...args], { timeout: 300_000 });
  return stdout.trim();
}

/** HAProxy's statistics of every server ("backend/server" → its CSV row, by column name: status, scur, …). */
export async function haproxyStats(c: Cluster): Promise<Record<string, Record<string, string>>> {
  const res = await fetch(`http://127.0.0.1:${c.stats}/stats;csv`, { signal: AbortSignal.timeout(2000) });
  const [header, ...lines] = (await res.text()).split('\n');
  const names = header!.replace(/^# /, '').split(',');
  const out: Record<string, Record<string, string>> = {};
  for (const line of lines) {
    const cells = line.split(',');
    if (cells.length >= names.length - 1)
      out[`${cells[0]}/${cells[1]}`] = Object.fromEntries(names.map((n, i) => [n, cells[i] ?? '']));
  }
  return out;
}

/** HAProxy's status of every server ("backend/server" → UP, DOWN, DRAIN, "no check", …). */
export async function haproxyStatus(c: Cluster): Promise<Record<string, string>> {
  return Object.fromEntries(Object.entries(await haproxyStats(c)).map(([k, row]) => [k, row.status!]));
}

export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A connection straight to node `n` (not through HAProxy), for checks the service cannot make. */
export function nodeConnection(c: Cluster, n: number | string, database = 'snippets'): Promise<mysql.Connection> {
  return mysql.createConnection({
    host: '127.0.0.1',
    port: c.nodes[String(n)]!,
    user: 'snippets',
    password: 'snippets',
    database,
    connectTimeout: 5000,
  });
}

export async function nodeStatus(c: Cluster, n: number | string, name: string): Promise<string | undefined> {
  const conn = await nodeConnection(c, n);
  try {
    const [rows] = await conn.query('SHOW GLOBAL STATUS LIKE ?', [name]);
    return (rows as { Value: string }[])[0]?.Value;
  } finally {
    await conn.end();
  }
}
