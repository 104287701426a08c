// Several autocannon instances run at the same time against one service, each load tallied on its own.
import autocannon from 'autocannon';

export interface Load {
  name: string;
  /** Which side of the mixed scenario the load is on; sides are tallied together as well. */
  side: 'readers' | 'writers';
  connections: number;
  request: autocannon.Request;
}

export interface Tally {
  name: string;
  side: Load['side'];
  connections: number;
  seconds: number;
  /** 2xx answers. */
  ok: number;
  /** Other answers and socket errors, timeouts excepted. */
  errors: number;
  timeouts: number;
  /** Per answer, ms, whatever its status. */
  latencies: number[];
  statuses: Record<string, number>;
}

/** A client waits this long for an answer before counting a timeout. */
export const TIMEOUT_SECONDS = 10;

/** What reconnectAfterClose() reaches of autocannon 8's client (node_modules/autocannon/lib/httpClient.js). */
interface ClientInternals {
  on(event: 'headers', listener: (info: { shouldKeepAlive: boolean }) => void): void;
  _doRequest(): void;
  _connect(): void;
  _destroyConnection(): void;
}

/**
 * A new connection after an answer that closes its own (`Connection: close`: gunicorn's sync workers, the Django
 * original's, answer so every time). autocannon 8 writes the next request on the closing socket, counts the reset as an
 * error and, its request queue never cleared, times every later answer from the start of a request that was lost.
 */
function reconnectAfterClose(client: autocannon.Client): void {
  const c = client as unknown as ClientInternals;
  let closing = false;
  c.on('headers', (info) => (closing = !info.shouldKeepAlive));
  const doRequest = c._doRequest;
  c._doRequest = function (this: ClientInternals) {
    if (!closing) return doRequest.call(this);
    closing = false;
    // Drops the old socket and its listeners; _connect() sends the next request on the new one.
    this._destroyConnection();
    this._connect();
  };
}

function run(base: string, load: Load, seconds: number): Promise<Tally> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const opts = {
      url: base,
      requests: [load.request],
      connections: load.connections,
      duration: seconds,
      timeout: TIMEOUT_SECONDS,
      setupClient: reconnectAfterClose,
    };
    const instance = autocannon(opts, (err: Error | null, r: autocannon.Result) => {
      if (err) return reject(err);
      const statuses = Object.fromEntries(
        Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, (s as { count: number }).count]),
      );
      resolve({
        name: load.name,
        side: load.side,
        connections: load.connections,
        seconds: r.duration,
        ok: r['2xx'],
        errors: r.non2xx + r.errors - r.timeouts,
        timeouts: r.timeouts,
        latencies,
        statuses,
      });
    });
    instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => latencies.push(ms));
  });
}

/** Every load for `seconds`, all at once. */
export function runPhase(base: string, loads: Load[], seconds: number): Promise<Tally[]> {
  return Promise.all(loads.map((l) => run(base, l, seconds)));
}

/** Loads of one side added up as one: rates add, latencies pool. */
export function combine(name: string, tallies: Tally[]): Tally {
  return {
    name,
    side: tallies[0]!.side,
    connections: tallies.reduce((n, t) => n + t.connections, 0),
    seconds: Math.max(...tallies.map((t) => t.seconds)),
    ok: tallies.reduce((n, t) => n + t.ok, 0),
    errors: tallies.reduce((n, t) => n + t.errors, 0),
    timeouts: tallies.reduce((n, t) => n + t.timeouts, 0),
    latencies: tallies.flatMap((t) => t.latencies),
    statuses: tallies.reduce<Record<string, number>>((all, t) => {
      for (const [code, n] of Object.entries(t.statuses)) all[code] = (all[code] ?? 0) + n;
      return all;
    }, {}),
  };
}

export const rate = (t: Tally): number => t.ok / t.seconds;

export function p99(t: Tally): number {
  if (!t.latencies.length) return NaN;
  const sorted = Float64Array.from(t.latencies).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!;
}
