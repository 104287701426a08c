// The faults bench/cluster.ts injects one at a time under load, each with its repair and its own target.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ctl, haproxyStats, haproxyStatus, nodeConnection, waitFor, type Cluster } from './cluster-ctl';
import { conflictWorkers, type User } from './cluster-load';

export interface FaultEnv {
  c: Cluster;
  /** The users whose snippets the load writes; writers[0] owns the conflict fault's snippet. */
  writers: User[];
  conflictId: number;
  /** What HAProxy reported DOWN during the fault so far: "backend/server" → first seen (ms since the epoch). */
  downSeen: Map<string, number>;
  log: (line: string) => void;
}

export interface FaultOutcome {
  /** When the repair was complete (ms since the epoch): a node Synced again, an instance UP in HAProxy again. */
  repairedAt: number;
  notes: string[];
  /** The fault's own target beyond "no 500, nothing lost": "" when met, else why not. */
  miss: string;
  /** The isolation fault's column: was the isolated node taken out of the service's path, and how. */
  takenOut?: string;
}

export interface Fault {
  name: string;
  inject: (f: FaultEnv) => Promise<FaultOutcome>;
  /** Extra workers running during this fault only. */
  extra?: (f: FaultEnv) => ReturnType<typeof conflictWorkers>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const serverUp = (f: FaultEnv, server: string) =>
  waitFor(`${server} UP in HAProxy`, async () => (await haproxyStatus(f.c))[server] === 'UP');

/** A node back: Synced (cluster.sh waits for that), and in proxy mode its database listener sends to it again. */
async function nodeBack(f: FaultEnv, n: number): Promise<string> {
  const errorLog = path.join(f.c.dir, `node${n}`, 'error.log');
  const from = statSync(errorLog).size;
  await ctl(f.c, 'node-start', String(n));
  if (f.c.mode === 'proxy') await serverUp(f, `db-node${n}/node${n}`);
  const rejoin = readFileSync(errorLog, 'utf8').slice(from);
  // Galera logs "IST received" when the joiner caught up from a donor's cache, and runs the SST script otherwise.
  return /IST received/.test(rejoin)
    ? 'rejoined by IST'
    : /wsrep_sst_rsync|SST .*complete/i.test(rejoin)
      ? 'rejoined by SST (rsync)'
      : 'rejoined';
}

const instanceOnNode = (c: Cluster, n: number) =>
  Object.entries(c.instances).find(([name, i]) => i.node === n && ['a', 'b'].includes(name))![0];

function nodeFault(name: string, n: number, how: 'node-stop' | 'node-kill', signal: string): Fault {
  return {
    name,
    inject: async (f) => {
      f.log(`${signal} node${n} (instance ${instanceOnNode(f.c, n)}'s node), restart after 3 s`);
      await ctl(f.c, how, String(n));
      await sleep(3000);
      const how_ = await nodeBack(f, n);
      return { repairedAt: Date.now(), notes: [how_], miss: '' };
    },
  };
}

export const FAULTS: Fault[] = [
  {
    name: 'instance-kill',
    inject: async (f) => {
      f.log('kill -9 instance a, restart after 2 s');
      await ctl(f.c, 'instance-kill', 'a');
      await sleep(2000);
      await ctl(f.c, 'instance-start', 'a');
      await serverUp(f, 'instances/a');
      return { repairedAt: Date.now(), notes: [], miss: '' };
    },
  },
  nodeFault('node-term', 1, 'node-stop', 'SIGTERM'),
  nodeFault('node-kill', 2, 'node-kill', 'kill -9'),
  {
    name: 'isolate',
    inject: async (f) => {
      const isolation = 10_000;
      f.log(`gmcast.isolate=1 on node1 for ${isolation / 1000} s, then 0`);
      const conn = await nodeConnection(f.c, 1);
      const t0 = Date.now();
      try {
        await conn.query("SET GLOBAL wsrep_provider_options='gmcast.isolate=1'");
        await sleep(isolation);
        await conn.query("SET GLOBAL wsrep_provider_options='gmcast.isolate=0'");
      } finally {
        await conn.end();
      }
      const after = (server: string) =>
        f.downSeen.has(server) ? `DOWN after ${((f.downSeen.get(server)! - t0) / 1000).toFixed(1)} s` : 'never DOWN';
      const instance = after('instances/a');
      const proxied = after('db-node1/node1');
      await waitFor('node1 Synced again', async () => {
        const conn2 = await nodeConnection(f.c, 1);
        try {
          const [rows] = await conn2.query("SHOW GLOBAL STATUS LIKE 'wsrep_local_state_comment'");
          return (rows as { Value: string }[])[0]?.Value === 'Synced';
        } finally {
          await conn2.end();
        }
      });
      if (f.c.mode === 'proxy') await serverUp(f, 'db-node1/node1');
      // Through its listener an instance follows the cluster to a synced node; connected directly, only its /readyz can take it out.
      const out = f.c.mode === 'proxy' ? f.downSeen.has('db-node1/node1') : f.downSeen.has('instances/a');
      return {
        repairedAt: Date.now(),
        notes: [],
        takenOut: `instance a ${instance}${f.c.mode === 'proxy' ? `; node1 in a's database listener ${proxied}` : ''}`,
        miss: out
          ? ''
          : f.c.mode === 'proxy'
            ? 'the database listener kept sending to the isolated node'
            : 'instance a stayed in the balancer (its /readyz said ready)',
      };
    },
  },
  {
    name: 'rolling',
    inject: async (f) => {
      for (const name of ['a', 'b']) {
        // Drained first: a stopping instance closes its idle keep-alive connections, and HAProxy may be sending a
        // request on one at that moment (the client then sees the connection closed without an answer).
        f.log(`rolling restart: drain instance ${name} in HAProxy, SIGTERM it, start it, back to ready, wait until UP`);
        await ctl(f.c, 'haproxy', `set server instances/${name} state drain`);
        await waitFor(
          `instance ${name} drained`,
          async () => (await haproxyStats(f.c))[`instances/${name}`]?.scur === '0',
          10_000,
        ).catch(() => f.log(`instance ${name}: requests still under way after 10 s`));
        await ctl(f.c, 'instance-stop', name);
        await ctl(f.c, 'instance-start', name);
        await ctl(f.c, 'haproxy', `set server instances/${name} state ready`);
        await serverUp(f, `instances/${name}`);
      }
      return { repairedAt: Date.now(), notes: [], miss: '' };
    },
  },
  {
    name: 'conflict',
    extra: (f) => conflictWorkers([f.c.instances.a!.port, f.c.instances.b!.port], f.writers[0]!, f.conflictId, 4),
    inject: async (f) => {
      f.log(`8 PUTs at a time to snippet ${f.conflictId}, 4 through instance a (node1), 4 through b (node2)`);
      await sleep(8000);
      return { repairedAt: Date.now(), notes: [], miss: '' };
    },
  },
  {
    name: 'migrate',
    inject: async (f) => {
      const db = 'snippets_migrate';
      f.log(`instances c (node1) and d (node2) started at once on an empty database ${db}`);
      const conn = await nodeConnection(f.c, 1);
      try {
        await conn.query(`DROP DATABASE IF EXISTS ${db}`);
        await conn.query(`CREATE DATABASE ${db} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
        const started = await Promise.allSettled([
          ctl(f.c, 'instance-start', 'c', db),
          ctl(f.c, 'instance-start', 'd', db),
        ]);
        const repairedAt = Date.now();
        const applied = ['c', 'd'].map((name) => appliedMigrations(f.c, name));
        const [rows] = await conn.query(`SELECT name FROM ${db}.schema_migrations`);
        const stored = (rows as { name: string }[]).map((r) => r.name);
        const counts = new Map<string, number>();
        for (const name of applied.flat()) counts.set(name, (counts.get(name) ?? 0) + 1);
        const twice = [...counts].filter(([, n]) => n > 1).map(([name]) => name);
        const failed = started.flatMap((s, i) =>
          s.status === 'rejected' ? [`instance ${'cd'[i]} did not start`] : [],
        );
        await Promise.all(['c', 'd'].map((name) => ctl(f.c, 'instance-stop', name)));
        await conn.query(`DROP DATABASE ${db}`);
        const misses = [
          ...failed,
          ...(twice.length ? [`applied twice: ${twice.join(', ')}`] : []),
          ...(counts.size !== stored.length ? [`${counts.size} applied, ${stored.length} recorded`] : []),
        ];
        return {
          repairedAt,
          notes: [`c applied ${applied[0]!.length}, d applied ${applied[1]!.length}, ${stored.length} recorded`],
          miss: misses.join('; '),
        };
      } finally {
        await conn.end();
      }
    },
  },
];

/** The migrations an instance's log says it applied (serve.ts logs "applied migrations" with their names). */
function appliedMigrations(c: Cluster, name: string): string[] {
  const names: string[] = [];
  for (const line of readFileSync(path.join(c.dir, 'logs', `instance-${name}.log`), 'utf8').split('\n')) {
    if (!line.includes('"applied migrations"')) continue;
    names.push(...((JSON.parse(line) as { migrations?: string[] }).migrations ?? []));
  }
  return names;
}
