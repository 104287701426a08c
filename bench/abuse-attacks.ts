// The attacks of issue 27 ("Bounded cost"), each a set of clients started at the attack's beginning and stopped at its
// end, with what the attacker got and what the attack did (rows created, bytes stored, creates stored unanswered).
import { statSync } from 'node:fs';
import { Counts, halfClosed, loops, type Loops } from './abuse-clients';
import { PUT_LOOPS, REVISION_CHARS, type Seeded, type Sql } from './abuse-seed';
import { RARE_TERM } from './search-seed';

export interface AttackContext {
  port: number;
  seeded: Seeded;
  /** The bench's own connection to the service's database. */
  sql: Sql;
  /** The SQLite file, when the service runs on one. */
  sqliteFile?: string;
  /** The service's THROTTLE_USER. */
  throttleUser: string;
}

export interface Running {
  /** Ends the attack: its clients leave, cutting what they still wait for. */
  stop(): Promise<void>;
  /** After the phase after the attack: the attacker's outcomes, and notes on what the attack did. */
  report(): Promise<{ attacker: string; notes: string }>;
}

export interface Attack {
  name: string;
  /** For the report: who sends what. */
  summary: string;
  start(ctx: AttackContext): Promise<Running>;
}

/** Calls in the oversized tRPC batch: the issue's 3,400 creates in 5 requests were about 700 a batch. */
const OVERSIZED_BATCH = Number(process.env.BENCH_ABUSE_BATCH ?? 700);
/** ...and a batch of TRPC_MAX_BATCH's default (10) beside it, which the service takes, for the throttle's per-call count. */
const SMALL_BATCH = 10;

/** The costly searches of the issue: a non-ASCII character, a long repetitive phrase, a rare term, a 2-character term. */
const COSTLY_SEARCHES = ['¤', `"${'ret'.repeat(100)}"`, RARE_TERM, 'zq'];

const json = { 'content-type': 'application/json' };
const token = (t: string) => ({ ...json, authorization: `Token ${t}` });
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** A plain loop attack: its outcomes are the attacker's, it notes nothing else. */
function plain(l: Loops, notes = ''): Running {
  return { stop: () => l.stop(), report: async () => ({ attacker: l.outcomes.toString(), notes }) };
}

async function rows(sql: Sql, query: string, params: unknown[]): Promise<number> {
  return Number(Object.values((await sql.all<Record<string, unknown>>(query, params))[0] ?? {})[0] ?? 0);
}

/** What each call of a tRPC batch answer got: "ok" or its HTTP status (the answer's JSON array). */
function countCalls(body: Buffer, calls: Counts): void {
  let items: unknown;
  try {
    items = JSON.parse(body.toString('utf8'));
  } catch {
    return;
  }
  if (!Array.isArray(items)) return;
  for (const item of items as { result?: unknown; error?: { data?: { httpStatus?: number; code?: string } } }[]) {
    calls.add(
      item.result !== undefined ? 'ok' : String(item.error?.data?.httpStatus ?? item.error?.data?.code ?? 'error'),
    );
  }
}

const batchCreate: Attack = {
  name: 'trpc-batch-create',
  summary: `Token user, THROTTLE_USER as below: POST /trpc/snippets.create×${OVERSIZED_BATCH}?batch=1 and ×${SMALL_BATCH} in a loop each`,
  async start(ctx) {
    const { id, token: key } = ctx.seeded.attackers.batch;
    const count = () => rows(ctx.sql, 'SELECT COUNT(*) FROM snippets WHERE owner_id = ?', [id]);
    const before = await count();
    const started = Date.now();
    const calls = new Counts();
    const batch = (n: number) => ({
      method: 'POST',
      path: `/trpc/${Array(n).fill('snippets.create').join(',')}?batch=1`,
      headers: token(key),
      body: JSON.stringify(
        Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i), { title: 'batched', code: `x = ${i}\n` }])),
      ),
    });
    const l = loops(ctx.port, {
      clients: 2,
      giveUpMs: 60000,
      request: (client) => batch(client === 0 ? OVERSIZED_BATCH : SMALL_BATCH),
      onAnswer: (o) => countCalls(o.body, calls),
    });
    let seconds = 0;
    return {
      stop: async () => {
        await l.stop();
        seconds = (Date.now() - started) / 1000;
      },
      async report() {
        const created = (await count()) - before;
        const [n, unit] = ctx.throttleUser.split('/') as [string, string];
        const windows = unit === 'second' ? Math.ceil(seconds) + 1 : 1;
        return {
          attacker: `${l.outcomes}; calls ${calls}`,
          notes: `created ${created} in ${seconds.toFixed(1)} s; THROTTLE_USER ${ctx.throttleUser} allows ${Number(n) * windows}`,
        };
      },
    };
  },
};

const batchSearch: Attack = {
  name: 'trpc-batch-search',
  summary: 'anonymous, 1 client: GET /trpc/snippets.list×10?batch=1 of the costly searches, no limit',
  async start(ctx) {
    const input = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [String(i), { search: COSTLY_SEARCHES[i % COSTLY_SEARCHES.length] }]),
    );
    const path = `/trpc/${Array(10).fill('snippets.list').join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;
    return plain(loops(ctx.port, { clients: 1, giveUpMs: 120000, request: () => ({ method: 'GET', path }) }));
  },
};

const listAll: Attack = {
  name: 'trpc-list-all',
  summary: 'anonymous, 16 clients: GET /trpc/snippets.list without input (every snippet at once)',
  async start(ctx) {
    return plain(
      loops(ctx.port, {
        clients: 16,
        giveUpMs: 120000,
        request: () => ({ method: 'GET', path: '/trpc/snippets.list' }),
      }),
    );
  },
};

const revisionsPage: Attack = {
  name: 'revisions-1000',
  summary: `anonymous, 4 clients: GET /snippets/<pk>/revisions/?limit=1000 of revisions of ${REVISION_CHARS.toLocaleString('en')} characters`,
  async start(ctx) {
    const path = `/snippets/${ctx.seeded.historyId}/revisions/?limit=1000`;
    return plain(loops(ctx.port, { clients: 4, giveUpMs: 120000, request: () => ({ method: 'GET', path }) }));
  },
};

const abandonedSearches: Attack = {
  name: 'abandoned-searches',
  summary: `anonymous, 16 clients giving up after 200 ms: GET /snippets/?limit=100&search= ¤, "ret…" (300), ${RARE_TERM}, zq in turn`,
  async start(ctx) {
    const paths = COSTLY_SEARCHES.map((s) => `/snippets/?limit=100&search=${encodeURIComponent(s)}`);
    return plain(
      loops(ctx.port, {
        clients: 16,
        giveUpMs: 200,
        request: (client, n) => ({ method: 'GET', path: paths[(client + n) % paths.length]! }),
      }),
    );
  },
};

/**
 * Issue 28's searches, each asked until answered: the rare term, one non-ASCII character, a 999-character repetitive
 * phrase, and short terms alone and with the other filters (one owner, one language, a creation window).
 */
const SEARCH_FLOOD = [
  `search=${RARE_TERM}`,
  `search=${encodeURIComponent('¤')}`,
  `search=${'ret'.repeat(333)}`,
  'search=zq',
  'search=q%3B&owner=user7&language=go',
  'search=zq&created_after=2026-01-01T10%3A00&ordering=-created',
];

const searchFlood: Attack = {
  name: 'search-flood',
  summary: `anonymous, 16 clients each waiting for its answer: GET /snippets/?limit=100&search= ${RARE_TERM}, ¤, ret×333, zq, "q;" with owner and language, zq with created_after, in turn`,
  async start(ctx) {
    const paths = SEARCH_FLOOD.map((q) => `/snippets/?limit=100&${q}`);
    return plain(
      loops(ctx.port, {
        clients: 16,
        giveUpMs: 30000,
        request: (client, n) => ({ method: 'GET', path: paths[(client + n) % paths.length]! }),
      }),
    );
  },
};

const bigDiffs: Attack = {
  name: 'diff-50k-lines',
  summary:
    'anonymous, 2 clients: GET /snippets/<pk>/revisions/2/diff/ of two 50,000-line revisions with no line in common',
  async start(ctx) {
    const attack = loops(ctx.port, {
      clients: 2,
      giveUpMs: 120000,
      request: () => ({ method: 'GET', path: `/snippets/${ctx.seeded.bigDiffId}/revisions/2/diff/` }),
    });
    // Another client's diff of a one-line change meanwhile: the issue saw it answered 422.
    const probe = loops(ctx.port, {
      clients: 1,
      giveUpMs: 30000,
      request: () => ({ method: 'GET', path: `/snippets/${ctx.seeded.smallDiffId}/revisions/2/diff/` }),
    });
    return {
      stop: () => Promise.all([attack.stop(), probe.stop()]).then(() => undefined),
      report: async () => ({
        attacker: attack.outcomes.toString(),
        notes: `another client's one-line diff meanwhile: ${probe.outcomes}`,
      }),
    };
  },
};

const bigPuts: Attack = {
  name: 'put-100k',
  summary: `one Token user, ${PUT_LOOPS} clients: PUT /snippets/<pk>/ of 100,000 four-byte characters, each save new code`,
  async start(ctx) {
    const { id, token: key } = ctx.seeded.attackers.put;
    const stored = async () => {
      const [r] = await ctx.sql.all<{ n: number; bytes: number | null }>(
        'SELECT COUNT(*) AS n, SUM(OCTET_LENGTH(r.code)) AS bytes FROM snippet_revisions r JOIN snippets s ON s.id = r.snippet_id WHERE s.owner_id = ?',
        [id],
      );
      return { n: Number(r!.n), bytes: Number(r!.bytes ?? 0) };
    };
    const fileSize = () =>
      ctx.sqliteFile
        ? [ctx.sqliteFile, `${ctx.sqliteFile}-wal`].reduce(
            (n, f) => n + (statSync(f, { throwIfNoEntry: false })?.size ?? 0),
            0,
          )
        : 0;
    const before = await stored();
    const fileBefore = fileSize();
    const code = (client: number, n: number) => {
      const head = `# loop ${client} save ${n}\n`;
      return head + '😀'.repeat(100_000 - head.length);
    };
    const l = loops(ctx.port, {
      clients: PUT_LOOPS,
      giveUpMs: 60000,
      request: (client, n) => ({
        method: 'PUT',
        path: `/snippets/${ctx.seeded.putIds[client]}/`,
        headers: token(key),
        body: JSON.stringify({ title: 'big', code: code(client, n) }),
      }),
    });
    return {
      stop: () => l.stop(),
      async report() {
        const after = await stored();
        const saves = after.n - before.n;
        const grew = after.bytes - before.bytes;
        const file = ctx.sqliteFile ? `; the SQLite file (and WAL) +${mb(fileSize() - fileBefore)}` : '';
        return {
          attacker: l.outcomes.toString(),
          notes: `+${saves} revisions, +${mb(grew)} of code stored${saves ? ` (${(grew / saves / 1000).toFixed(0)} kB a save)` : ''}${file}`,
        };
      },
    };
  },
};

const halfClosedCreates: Attack = {
  name: 'half-closed-creates',
  summary: 'one Token user, 4 clients: POST /snippets/ on a new connection each, its write side shut after the body',
  async start(ctx) {
    const { id, token: key } = ctx.seeded.attackers.halfClosed;
    const count = () => rows(ctx.sql, 'SELECT COUNT(*) FROM snippets WHERE owner_id = ?', [id]);
    const before = await count();
    const outcomes = new Counts();
    let running = true;
    const client = async (c: number) => {
      for (let n = 0; running; n++) {
        const body = JSON.stringify({ title: 'half-closed', code: `print(${c}, ${n})\n` });
        outcomes.add(
          await halfClosed(ctx.port, { method: 'POST', path: '/snippets/', headers: token(key), body }, 2000),
        );
      }
    };
    const all = Promise.all(Array.from({ length: 4 }, (_, c) => client(c)));
    return {
      stop: async () => {
        running = false;
        await all;
      },
      async report() {
        const stored = (await count()) - before;
        const answered = outcomes.get('201');
        return {
          attacker: outcomes.toString(),
          notes: `${outcomes.total()} sent, ${answered} answered 201, ${stored} stored: ${stored - answered} stored without an answer`,
        };
      },
    };
  },
};

export const ATTACKS: Attack[] = [
  batchCreate,
  batchSearch,
  listAll,
  revisionsPage,
  abandonedSearches,
  searchFlood,
  bigDiffs,
  bigPuts,
  halfClosedCreates,
];
