// `npm run bench:durability`: kill -9 under Token write load, restart, and every acknowledged create is still there, and
// every acknowledged update is stored with its revision (docs/api.md "History"): a save and its revision are one
// transaction.
import http from 'node:http';
import { account, storedSnippets } from './accounting';
import { apiToken } from './credentials';
import { openEngine, uniqueUsername } from './engine';
import { rngFor } from './prng';
import { sendRaw } from './raw-request';
import { cli, killGroup, startService, stop, waitForHttp, throttledServiceEnv } from './service';
import { markdownTable } from './table';
import { exitWith } from './exit-with';

const PORT = 18705;
const CYCLES = Number(process.env.BENCH_CYCLES ?? 5);
const SEED = Number(process.env.BENCH_SEED ?? 1);
const WRITERS = 16;
/** Of the WRITERS, how many update a snippet of their own, again and again, instead of creating. */
const UPDATERS = 8;
const TIMEOUT_MS = 10000;

type Service = ReturnType<typeof startService>;

/** Started in a process group of its own: kill -9 then takes the primary and every worker at once, as a crash of the machine's service would. */
async function start(env: NodeJS.ProcessEnv, base: string): Promise<{ service: Service; ms: number }> {
  const t0 = Date.now();
  const service = startService(env, { detached: true });
  await waitForHttp(`${base}/snippets/?limit=1`);
  return { service, ms: Date.now() - t0 };
}

/**
 * WRITERS - UPDATERS creates at a time, and UPDATERS PUTs each to a snippet of its own, until the service dies under
 * them; the creates it answered 201 (id → code), the updates it answered 200 (id → the codes saved).
 */
async function writeUntilKilled(
  token: string,
  cycle: number,
  loadMs: number,
  service: Service,
): Promise<{ acked: Map<number, string>; updated: Map<number, string[]>; other: number }> {
  const acked = new Map<number, string>();
  const updated = new Map<number, string[]>();
  let other = 0;
  let killed = false;
  const agent = new http.Agent({ keepAlive: true, maxSockets: WRITERS });
  const headers = { 'content-type': 'application/json', authorization: `Token ${token}` };
  const creator = async (w: number) => {
    for (let n = 0; !killed; n++) {
      const code = `# durability cycle ${cycle} writer ${w} create ${n}\nprint(${n})\n`;
      const o = await sendRaw(
        agent,
        PORT,
        { method: 'POST', path: '/snippets/', headers, body: JSON.stringify({ code }) },
        TIMEOUT_MS,
      );
      if ('status' in o && o.status === 201)
        acked.set((JSON.parse(o.body.toString('utf8')) as { id: number }).id, code);
      else if (!killed) other++;
    }
  };
  const updater = async (w: number) => {
    const first = `# durability cycle ${cycle} updater ${w}\n`;
    const o = await sendRaw(
      agent,
      PORT,
      { method: 'POST', path: '/snippets/', headers, body: JSON.stringify({ code: first }) },
      TIMEOUT_MS,
    );
    if (!('status' in o) || o.status !== 201) return void (killed || other++);
    const id = (JSON.parse(o.body.toString('utf8')) as { id: number }).id;
    const saved = [first];
    updated.set(id, saved);
    for (let n = 1; !killed; n++) {
      const code = `# durability cycle ${cycle} updater ${w} update ${n}\n`;
      const put = await sendRaw(
        agent,
        PORT,
        { method: 'PUT', path: `/snippets/${id}/`, headers, body: JSON.stringify({ code }) },
        TIMEOUT_MS,
      );
      if ('status' in put && put.status === 200) saved.push(code);
      else if (!killed) other++;
    }
  };
  const writers = Promise.all(Array.from({ length: WRITERS }, (_, w) => (w < UPDATERS ? updater(w) : creator(w))));
  await new Promise((r) => setTimeout(r, loadMs));
  const exited = new Promise((r) => service.once('exit', r));
  killed = true;
  killGroup(service);
  await exited;
  await writers;
  agent.destroy();
  return { acked, updated, other };
}

interface Revisions {
  /** Acknowledged saves (the create and each update) with no revision of their code. */
  withoutRevision: number;
  /** Snippets whose code is not their newest revision's. */
  unlike: number;
}

/** Every acknowledged save of the updated snippets has its revision, and each snippet is its newest revision. */
async function checkRevisions(base: string, updated: Map<number, string[]>): Promise<Revisions> {
  const r: Revisions = { withoutRevision: 0, unlike: 0 };
  for (const [id, saved] of updated) {
    const revisions = (await (
      await fetch(`${base}/snippets/${id}/revisions/`, { signal: AbortSignal.timeout(60000) })
    ).json()) as { code: string }[];
    const codes = new Set(revisions.map((rev) => rev.code));
    r.withoutRevision += saved.filter((code) => !codes.has(code)).length;
    const snippet = (await (await fetch(`${base}/snippets/${id}/`, { signal: AbortSignal.timeout(60000) })).json()) as {
      code: string;
    };
    if (snippet.code !== revisions[0]?.code) r.unlike++;
  }
  return r;
}

async function main(): Promise<number> {
  const engine = await openEngine();
  const env = throttledServiceEnv(engine.url, PORT, 'error');
  const base = `http://127.0.0.1:${PORT}`;
  const username = uniqueUsername();
  const password = 'benchpass';
  const processes = Number(process.env.WEB_CONCURRENCY || 1);
  // A detached service does not get the terminal's Ctrl-C: exiting runs startService's clean-up.
  process.once('SIGINT', () => process.exit(130));
  let service: Service | undefined;
  try {
    cli(env, 'migrate');
    cli(env, 'createuser', username, '--password', password);
    ({ service } = await start(env, base));
    const token = await apiToken(base, username, password);
    const all = new Map<number, string>();
    const allUpdated = new Map<number, string[]>();
    const rows = [
      [
        'cycle',
        'load ms',
        'acknowledged',
        'found',
        'missing',
        'other code',
        'stored, not acknowledged',
        'updates acknowledged',
        'saves without revision',
        'snippet ≠ newest revision',
        'other answers',
        'restart ms',
      ],
    ];
    let failed = false;
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const loadMs = rngFor(SEED, cycle).int(1000, 3000);
      process.stderr.write(`bench: durability cycle ${cycle}/${CYCLES}: writing for ${loadMs} ms, then kill -9…\n`);
      const { acked, updated, other } = await writeUntilKilled(token, cycle, loadMs, service);
      for (const [id, code] of acked) all.set(id, code);
      for (const [id, saved] of updated) allUpdated.set(id, saved);
      const restarted = await start(env, base);
      service = restarted.service;
      // Every earlier cycle's creates are checked again: a later crash must not lose them either.
      const stored = await storedSnippets(base, username);
      for (const id of allUpdated.keys()) stored.delete(id);
      const accounts = account(all, stored);
      const revisions = await checkRevisions(base, allUpdated);
      const updates = [...updated.values()].reduce((sum, saved) => sum + saved.length - 1, 0);
      const missing = accounts.missing.filter((id) => acked.has(id)).length;
      const changed = accounts.changed.length;
      const earlier = accounts.missing.length - missing;
      failed ||=
        accounts.missing.length > 0 ||
        changed > 0 ||
        acked.size === 0 ||
        updates === 0 ||
        revisions.withoutRevision > 0 ||
        revisions.unlike > 0;
      rows.push([
        String(cycle),
        String(loadMs),
        String(acked.size),
        String(acked.size - missing),
        `${missing}${earlier ? ` (+${earlier} earlier)` : ''}`,
        String(changed),
        String(accounts.unacknowledged.length),
        String(updates),
        String(revisions.withoutRevision),
        String(revisions.unlike),
        String(other),
        String(restarted.ms),
      ]);
    }
    console.log(
      `\nDurability: ${CYCLES} cycles of ${WRITERS - UPDATERS} concurrent Token creates and ${UPDATERS} updates, kill -9 of the service's process group, restart; ` +
        `${engine.name}${engine.name === 'SQLite' ? ` (SQLITE_SYNCHRONOUS ${process.env.SQLITE_SYNCHRONOUS || 'default'})` : ''}, ` +
        `${processes} process${processes > 1 ? 'es' : ''}, THROTTLE_ANON/THROTTLE_USER 1000000/second\n`,
    );
    console.log(markdownTable(rows));
    console.log(
      failed
        ? '\nFAIL: an acknowledged create is missing or changed, a save has no revision, a snippet is not its newest revision, or a cycle acknowledged nothing'
        : '\nevery acknowledged create is there after each restart, and every acknowledged save has its revision',
    );
    return failed ? 1 : 0;
  } finally {
    if (service) await stop(service);
    await engine.close();
  }
}

exitWith(main);
