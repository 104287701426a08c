// scripts/cluster.sh's driver: users and tokens, then each fault under load with one table row per fault (docs/galera.md).
// Usage: tsx bench/cluster.ts CLUSTER_JSON [--duration S] [--faults a,b]
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { haproxyStatus, nodeConnection, readCluster, type Cluster } from './cluster-ctl';
import { FAULTS, type FaultEnv } from './cluster-faults';
import { mixedWorkers, newTally, runLoad, type Tally, type User } from './cluster-load';
import { apiToken, seedSnippets } from './credentials';
import { exitWith } from './exit-with';
import { ROOT } from './service';
import { markdownTable } from './table';

const READERS = 16;
const WRITERS = 16;
const PASSWORD = 'clusterpass';
/** Load before the fault is injected, and at least this long after its repair. */
const BEFORE_MS = 3000;
const AFTER_MS = 5000;

const log = (line: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} bench: ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The users: one made by the command line on node1, the others copies of its row (same password hash) by SQL, since
 * a command-line process per user took about 1.5 s each on this machine.
 */
async function makeUsers(c: Cluster, names: string[]): Promise<void> {
  const env = {
    ...process.env,
    DATABASE_URL: `mysql://snippets:snippets@127.0.0.1:${c.nodes['1']}/snippets`,
    PASSWORD_ITERATIONS: '1000',
    LOG_LEVEL: 'error',
  };
  const [first, ...rest] = names;
  await promisify(execFile)(
    process.execPath,
    [path.join(ROOT, 'dist/server/cli.js'), 'createuser', first!, '--password', PASSWORD],
    { env, timeout: 60_000 },
  );
  const conn = await nodeConnection(c, 1);
  try {
    for (const name of rest)
      await conn.query(
        'INSERT INTO users (username, password, email, is_superuser, date_joined) SELECT ?, password, email, is_superuser, UTC_TIMESTAMP(6) FROM users WHERE username = ?',
        [name, first],
      );
  } finally {
    await conn.end();
  }
}

/** Acknowledged creates missing (or changed) on any node, read with wsrep_sync_wait so a node's apply queue is waited for. */
async function lostWrites(c: Cluster, created: Map<number, string>): Promise<{ lost: number; detail: string[] }> {
  const lost = new Set<number>();
  const detail: string[] = [];
  const ids = [...created.keys()];
  for (const n of Object.keys(c.nodes)) {
    const conn = await nodeConnection(c, n);
    let missing = 0;
    try {
      await conn.query('SET SESSION wsrep_sync_wait = 1');
      for (let i = 0; i < ids.length; i += 1000) {
        const chunk = ids.slice(i, i + 1000);
        const [rows] = await conn.query('SELECT id, code FROM snippets WHERE id IN (?)', [chunk]);
        const found = new Map((rows as { id: number; code: string }[]).map((r) => [r.id, r.code]));
        for (const id of chunk) {
          if (found.get(id) === created.get(id)) continue;
          lost.add(id);
          missing++;
        }
      }
    } finally {
      await conn.end();
    }
    if (missing) detail.push(`node${n} misses ${missing}`);
  }
  return { lost: lost.size, detail };
}

/** The conflict fault's snippet reads the same on every node. */
async function sameEverywhere(c: Cluster, id: number): Promise<boolean> {
  const codes = new Set<string>();
  for (const n of Object.keys(c.nodes)) {
    const conn = await nodeConnection(c, n);
    try {
      await conn.query('SET SESSION wsrep_sync_wait = 1');
      const [rows] = await conn.query('SELECT code FROM snippets WHERE id = ?', [id]);
      codes.add((rows as { code: string }[])[0]?.code ?? '(missing)');
    } finally {
      await conn.end();
    }
  }
  return codes.size === 1;
}

/**
 * Issue 28's check: a snippet created through instance a (node1) is found by a search through instance b (node2) as
 * soon as its 201 is in, each time with a term no other snippet holds.
 */
async function searchAcrossNodes(c: Cluster, token: string, times = 20): Promise<string> {
  const [a, b] = [c.instances['a']!.port, c.instances['b']!.port];
  let found = 0;
  const misses: string[] = [];
  for (let i = 0; i < times; i++) {
    const term = `zq${Date.now().toString(36)}x${i}`;
    const res = await fetch(`http://127.0.0.1:${a}/snippets/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Token ${token}` },
      body: JSON.stringify({ title: 'across nodes', code: `# ${term}\nprint(${i})\n` }),
    });
    const { id } = (await res.json()) as { id: number };
    if (res.status !== 201) {
      misses.push(`create ${res.status}`);
      continue;
    }
    const search = await fetch(`http://127.0.0.1:${b}/snippets/?search=${term}`);
    const ids = search.status === 200 ? ((await search.json()) as { id: number }[]).map((s) => s.id) : [];
    if (ids.includes(id)) found++;
    else misses.push(`search ${search.status}, ${ids.length} found`);
  }
  return `search across nodes: ${found} of ${times} snippets created through instance a (node1) found by search through instance b (node2) right after their 201${misses.length ? ` (misses: ${misses.join('; ')})` : ''}`;
}

const kinds = (t: Tally, sides: string[]) =>
  [...t.failures]
    .filter(([k]) => sides.includes(k.split(' ')[0]!))
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ') || '0';

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { duration: { type: 'string', default: '20' }, faults: { type: 'string' } },
  });
  const c = readCluster(positionals[0]!);
  const duration = Number(values.duration) * 1000;
  const chosen = values.faults ? values.faults.split(',') : FAULTS.map((f) => f.name);
  const unknown = chosen.filter((name) => !FAULTS.some((f) => f.name === name));
  if (unknown.length)
    throw new Error(`unknown faults: ${unknown.join(', ')} (known: ${FAULTS.map((f) => f.name).join(', ')})`);
  const base = `http://127.0.0.1:${c.http}`;

  log(`${READERS} readers and ${WRITERS} writers, each a user with a token`);
  const names = Array.from(
    { length: READERS + WRITERS },
    (_, i) => `${i < READERS ? 'reader' : 'writer'}${i % READERS}`,
  );
  await makeUsers(c, names);
  const users: User[] = [];
  for (const username of names) users.push({ username, token: await apiToken(base, username, PASSWORD) });
  const readers = users.slice(0, READERS);
  const writers = users.slice(READERS);
  const [detailId, conflictId] = await seedSnippets(base, writers[0]!.token, 2);
  const crossNode = await searchAcrossNodes(c, writers[0]!.token);
  log(crossNode);

  const rows = [
    [
      'fault',
      'requests',
      'failed reads',
      'failed writes',
      '500s',
      'recovery s',
      'acked creates',
      'lost',
      'isolated node taken out',
      'notes',
    ],
  ];
  const misses: string[] = [];
  const examples: string[] = [];
  for (const fault of FAULTS.filter((f) => chosen.includes(f.name))) {
    log(`fault ${fault.name}: load for at least ${duration / 1000} s`);
    const tally = newTally();
    const f: FaultEnv = { c, writers, conflictId: conflictId!, downSeen: new Map(), log };
    let stopLoad!: () => void;
    const stop = new Promise<void>((r) => (stopLoad = r));
    const load = runLoad(
      [...mixedWorkers(c.http, readers, writers, detailId!, fault.name), ...(fault.extra?.(f) ?? [])],
      tally,
      stop,
    );
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const status = await haproxyStatus(c).catch(() => ({}) as Record<string, string>);
        for (const [server, s] of Object.entries(status))
          if (s.startsWith('DOWN') && !f.downSeen.has(server)) f.downSeen.set(server, Date.now());
        await sleep(250);
      }
    })();
    const started = Date.now();
    await sleep(BEFORE_MS);
    const t0 = Date.now();
    const outcome = await fault.inject(f);
    await sleep(Math.max(AFTER_MS, started + duration - Date.now()));
    stopLoad();
    await load;
    watching = false;
    await watcher;
    const { lost, detail } = await lostWrites(c, tally.created);
    const converged = fault.name === 'conflict' ? await sameEverywhere(c, conflictId!) : true;
    const recovery = (Math.max(outcome.repairedAt, tally.lastFailureAt) - t0) / 1000;
    const notes = [...outcome.notes, ...detail, ...(converged ? [] : ['the snippet differs between nodes'])];
    if (fault.name === 'conflict') notes.push(`${tally.putsAcked.size} PUTs answered 200`);
    const rowMisses = [
      ...(tally.internal ? [`${tally.internal} answers 500`] : []),
      ...(lost ? [`${lost} acknowledged creates lost`] : []),
      ...(outcome.miss ? [outcome.miss] : []),
      ...(converged ? [] : ['nodes disagree']),
    ];
    misses.push(...rowMisses.map((m) => `${fault.name}: ${m}`));
    rows.push([
      fault.name,
      String(tally.requests),
      kinds(tally, ['reads']),
      kinds(tally, ['writes', 'puts']),
      String(tally.internal),
      recovery.toFixed(1),
      String(tally.created.size),
      String(lost),
      outcome.takenOut ?? '-',
      notes.join('; ') || '-',
    ]);
    for (const [kind, message] of tally.examples) examples.push(`${fault.name}, ${kind}: ${message}`);
    log(`fault ${fault.name}: ${rowMisses.length ? `MISSED: ${rowMisses.join('; ')}` : 'targets met'}`);
    await sleep(2000);
  }
  console.log(
    `\nGalera cluster: 3 nodes, instances a (node1) and b (node2) behind HAProxy, ${c.mode === 'proxy' ? 'each through a Galera-aware HAProxy listener (its node first, the others as backups)' : 'each connected to its node directly'}; ${READERS} readers (a third searching) + ${WRITERS} Token writers\n`,
  );
  console.log(`${crossNode}\n`);
  console.log(markdownTable(rows));
  if (examples.length)
    console.log(`\nFailures without an answer, the first of each kind:\n${examples.map((e) => `  ${e}`).join('\n')}`);
  console.log(
    misses.length
      ? `\nFAIL:\n${misses.map((m) => `  ${m}`).join('\n')}`
      : '\nevery fault met its targets (no 500, no acknowledged create lost, the fault-specific checks)',
  );
  return misses.length ? 1 : 0;
}

exitWith(main);
