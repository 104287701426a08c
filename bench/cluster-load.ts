// The load under every fault: readers and Token writers through the balancer, each a user of its own, counted by outcome.
import http from 'node:http';
import { sendRaw, type RawRequest } from './raw-request';

export interface User {
  username: string;
  token: string;
}

export interface Tally {
  requests: number;
  /** "reads 502", "writes conn", "puts timeout", … → count: every answer that was not the expected success. */
  failures: Map<string, number>;
  /** Answers 500 exactly: a fault the service did not translate (an outage is a 503, a bad request a 4xx). */
  internal: number;
  /** The first message of each failure without an answer ("writes conn" → "socket hang up; on a reused connection…"). */
  examples: Map<string, string>;
  /** When the last failure was seen (ms since the epoch), 0 if none. */
  lastFailureAt: number;
  /** Snippets a 201 acknowledged: id → the code sent. */
  created: Map<number, string>;
  /** PUT bodies a 200 acknowledged (the conflict fault). */
  putsAcked: Set<string>;
}

const TIMEOUT_MS = 10_000;

export function newTally(): Tally {
  return {
    requests: 0,
    failures: new Map(),
    internal: 0,
    lastFailureAt: 0,
    examples: new Map(),
    created: new Map(),
    putsAcked: new Set(),
  };
}

type Side = 'reads' | 'writes' | 'puts';

interface Worker {
  side: Side;
  port: number;
  expect: number;
  /** The n-th request of this worker. */
  request: (n: number) => RawRequest;
}

/** Runs the workers until `stop` resolves; every outcome is counted in `tally`. */
export async function runLoad(workers: Worker[], tally: Tally, stop: Promise<void>): Promise<void> {
  let stopped = false;
  void stop.then(() => (stopped = true));
  const agents = new Map<number, http.Agent>();
  const agent = (port: number) => agents.get(port) ?? agents.set(port, new http.Agent({ keepAlive: true })).get(port)!;
  await Promise.all(
    workers.map(async (w) => {
      for (let n = 0; !stopped; n++) {
        const req = w.request(n);
        const o = await sendRaw(agent(w.port), w.port, req, TIMEOUT_MS);
        tally.requests++;
        if ('status' in o && o.status === w.expect) {
          if (w.side === 'writes')
            tally.created.set(
              (JSON.parse(o.body.toString('utf8')) as { id: number }).id,
              (JSON.parse(String(req.body)) as { code: string }).code,
            );
          if (w.side === 'puts') tally.putsAcked.add(String(req.body));
          continue;
        }
        const kind = 'status' in o ? String(o.status) : o.failure === 'socket' ? 'conn' : o.failure;
        tally.failures.set(`${w.side} ${kind}`, (tally.failures.get(`${w.side} ${kind}`) ?? 0) + 1);
        if ('status' in o && o.status === 500) tally.internal++;
        if ('failure' in o && !tally.examples.has(`${w.side} ${kind}`))
          tally.examples.set(`${w.side} ${kind}`, o.message);
        tally.lastFailureAt = Date.now();
        // A refused connection answers at once: a short pause keeps a dead target from spinning the loop.
        await new Promise((r) => setTimeout(r, 50));
      }
    }),
  );
  for (const a of agents.values()) a.destroy();
}

/** A search for writer `i % 16`'s creates under fault `label`: its code says `<label> writer <i> create`. */
const searchTerm = (label: string, i: number) => encodeURIComponent(`${label} writer ${i % 16} create`);

const json = (token: string) => ({ 'content-type': 'application/json', authorization: `Token ${token}` });

/**
 * A third of the readers fetch one snippet, a third the first page of the list, a third search the writers' snippets
 * of this fault (the index's rows written, replicated and certified with them: issue 28); each writer creates
 * snippets of its own.
 */
export function mixedWorkers(
  port: number,
  readers: User[],
  writers: User[],
  detailId: number,
  label: string,
): Worker[] {
  return [
    ...readers.map((u, i) => ({
      side: 'reads' as const,
      port,
      expect: 200,
      request: (): RawRequest => ({
        method: 'GET',
        path: [`/snippets/${detailId}/`, '/snippets/?limit=20', `/snippets/?limit=20&search=${searchTerm(label, i)}`][
          i % 3
        ]!,
        headers: { authorization: `Token ${u.token}` },
      }),
    })),
    ...writers.map((u, i) => ({
      side: 'writes' as const,
      port,
      expect: 201,
      request: (n: number): RawRequest => ({
        method: 'POST',
        path: '/snippets/',
        headers: json(u.token),
        body: JSON.stringify({ title: label, code: `# ${label} writer ${i} create ${n}\nprint(${n})\n` }),
      }),
    })),
  ];
}

/** Owner's PUTs to one snippet, straight at instances on different nodes: their transactions certify against each other. */
export function conflictWorkers(ports: number[], owner: User, id: number, perPort: number): Worker[] {
  return ports.flatMap((port, p) =>
    Array.from({ length: perPort }, (_, i) => ({
      side: 'puts' as const,
      port,
      expect: 200,
      request: (n: number): RawRequest => ({
        method: 'PUT',
        path: `/snippets/${id}/`,
        headers: json(owner.token),
        body: JSON.stringify({ title: 'conflict', code: `# port ${port} putter ${p}.${i} put ${n}\n` }),
      }),
    })),
  );
}
