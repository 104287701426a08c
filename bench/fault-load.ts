// The load the fault bench keeps up across a fault: readers (a page of the list, one snippet) and Token creates on
// kept-alive connections, every request recorded with when it started, how long it took and how it ended.
import http from 'node:http';
import { sendRaw } from './raw-request';

/** A client gives up on an answer after this long and counts a timeout. */
export const REQUEST_TIMEOUT_MS = 10000;

export interface Sample {
  kind: 'read' | 'create';
  /** Date.now() when the request was sent. */
  start: number;
  ms: number;
  /** The status, or timeout, refused (nothing listened), socket (the connection failed or was cut). */
  result: string;
  /** How a socket failure or a timeout came about. */
  detail?: string;
}

export interface LoadOptions {
  port: number;
  token: string;
  /** Writer w's token is writerTokens[w % length] when given (each its own user, each under THROTTLE_USER alone). */
  writerTokens?: string[];
  /** A snippet the readers fetch. */
  snippetId: number;
  readers: number;
  writers: number;
}

export class FaultLoad {
  readonly samples: Sample[] = [];
  /** The creates answered 201: id → code sent. */
  readonly acked = new Map<number, string>();
  private running = true;
  private readonly agent: http.Agent;
  private readonly loops: Promise<void>[];

  constructor(private readonly opts: LoadOptions) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: opts.readers + opts.writers });
    this.loops = [
      ...Array.from({ length: opts.readers }, (_, i) => this.reader(i)),
      ...Array.from({ length: opts.writers }, (_, i) => this.writer(i)),
    ];
  }

  private async reader(i: number): Promise<void> {
    for (let n = 0; this.running; n++) {
      // Half the readers start with the list, half with the snippet.
      await this.send('read', {
        method: 'GET',
        path: (n + i) % 2 ? `/snippets/${this.opts.snippetId}/` : '/snippets/?limit=20',
      });
    }
  }

  private async writer(w: number): Promise<void> {
    const tokens = this.opts.writerTokens?.length ? this.opts.writerTokens : [this.opts.token];
    const token = tokens[w % tokens.length]!;
    for (let n = 0; this.running; n++) {
      const code = `# fault bench writer ${w} create ${n} ${Date.now()}\nprint(${n})\n`;
      const body = await this.send('create', {
        method: 'POST',
        path: '/snippets/',
        headers: { 'content-type': 'application/json', authorization: `Token ${token}` },
        body: JSON.stringify({ code }),
      });
      if (body) this.acked.set((JSON.parse(body) as { id: number }).id, code);
    }
  }

  /** Sends one request and records it; the body of a 201. */
  private async send(kind: Sample['kind'], req: Parameters<typeof sendRaw>[2]): Promise<string | undefined> {
    const start = Date.now();
    const o = await sendRaw(this.agent, this.opts.port, req, REQUEST_TIMEOUT_MS);
    const ms = Date.now() - start;
    let result: string;
    if ('status' in o) result = String(o.status);
    else if (o.failure === 'socket' && /ECONNREFUSED/.test(o.message)) result = 'refused';
    else result = o.failure;
    this.samples.push({ kind, start, ms, result, detail: 'failure' in o ? o.message : undefined });
    // A refused connection comes back at once: a pause keeps a stopped service from being hammered in a tight loop.
    if (result === 'refused' || result === 'socket') await new Promise((r) => setTimeout(r, 50));
    return 'status' in o && o.status === 201 ? o.body.toString('utf8') : undefined;
  }

  /** When both a read and a create sent at or after `since` succeeded: the later of the two, or undefined. */
  recoveredAt(since: number): number | undefined {
    const first = (kind: Sample['kind']) =>
      this.samples.find((s) => s.kind === kind && s.start >= since && /^2/.test(s.result));
    const read = first('read');
    const create = first('create');
    return read && create ? Math.max(read.start + read.ms, create.start + create.ms) : undefined;
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    this.agent.destroy();
  }
}

/**
 * Counts per result of the samples sent in [from, to), e.g. "200×812 201×95 500×3 timeout×2", the worst latency, and
 * how the socket failures came about (refusals left out: they only say that nothing listened).
 */
export function summarize(
  samples: Sample[],
  from: number,
  to: number,
): { statuses: string; worstMs: number; failures: string[] } {
  const counts = new Map<string, number>();
  const failures = new Set<string>();
  let worstMs = 0;
  for (const s of samples) {
    if (s.start < from || s.start >= to) continue;
    counts.set(s.result, (counts.get(s.result) ?? 0) + 1);
    worstMs = Math.max(worstMs, s.ms);
    if (s.result === 'socket' && s.detail) failures.add(`${s.kind}: ${s.detail}`);
  }
  const statuses = [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([r, n]) => `${r}×${n}`)
    .join(' ');
  return { statuses: statuses || '-', worstMs, failures: [...failures] };
}
