// The abuse bench's attackers: loops of requests counted by outcome, cut off when the attack ends, and a create sent on
// a connection whose write side the client shuts at once (a half-closed connection).
import http from 'node:http';
import net from 'node:net';
import { sendRaw, type Outcome, type RawRequest } from './raw-request';

/** Outcomes by name ("200", "429", "gave up", …), printed as "200×12 429×3". */
export class Counts {
  private readonly counts = new Map<string, number>();
  add(outcome: string, n = 1): void {
    this.counts.set(outcome, (this.counts.get(outcome) ?? 0) + n);
  }
  get(outcome: string): number {
    return this.counts.get(outcome) ?? 0;
  }
  entries(): [string, number][] {
    return [...this.counts];
  }
  total(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }
  toString(): string {
    return (
      [...this.counts]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, n]) => `${k}×${n}`)
        .join(' ') || '-'
    );
  }
}

export interface Loops {
  /** Every request's outcome: its status; "gave up" past the client's deadline; "cut" when the attack ended first. */
  readonly outcomes: Counts;
  /** Ends the loops; requests still waiting are cut (their connections closed), as a client that leaves does. */
  stop(): Promise<void>;
}

export interface LoopOptions {
  clients: number;
  /** Client i's next request. */
  request: (client: number, n: number) => RawRequest;
  /** How long a client waits for an answer before it gives up and closes the connection. */
  giveUpMs: number;
  /** Sees every answer (to count what a batch's calls got, say). */
  onAnswer?: (o: Extract<Outcome, { status: number }>) => void;
}

export function loops(port: number, opts: LoopOptions): Loops {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.clients });
  const outcomes = new Counts();
  let running = true;
  const loop = async (client: number) => {
    for (let n = 0; running; n++) {
      const o = await sendRaw(agent, port, opts.request(client, n), opts.giveUpMs);
      if (!running) outcomes.add('cut');
      else if ('status' in o) {
        outcomes.add(String(o.status));
        opts.onAnswer?.(o);
      } else outcomes.add(o.failure === 'timeout' ? 'gave up' : o.failure);
      // A refused or failed connection comes back at once: no tight loop on a service that is down.
      if ('failure' in o && o.failure !== 'timeout') await new Promise((r) => setTimeout(r, 50));
    }
  };
  const all = Promise.all(Array.from({ length: opts.clients }, (_, i) => loop(i)));
  return {
    outcomes,
    async stop() {
      running = false;
      // Closes the sockets in use too: the requests still waiting end now, and the service sees their clients leave.
      agent.destroy();
      await all;
    },
  };
}

/**
 * Sends `request` on a new connection, shuts the connection's write side at once (FIN after the body), and waits up to
 * `waitMs` for an answer: its status, or "no answer" when the connection closed (or the wait ended) without one.
 */
export function halfClosed(port: number, request: RawRequest & { body: string }, waitMs: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const done = (outcome: string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => done('no answer'), waitMs);
    socket.on('connect', () => {
      const head = [
        `${request.method} ${request.path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        `Content-Length: ${Buffer.byteLength(request.body)}`,
      ];
      for (const [name, value] of Object.entries(request.headers ?? {})) head.push(`${name}: ${String(value)}`);
      socket.end(`${head.join('\r\n')}\r\n\r\n${request.body}`);
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received);
      if (status) done(status[1]!);
    });
    socket.on('error', () => done('no answer'));
    socket.on('close', () => done('no answer'));
  });
}
