// HTTP/1.1 over a bare socket, for tests of connection handling: a request held in flight on purpose, a kept-alive
// connection left idle, the bytes of the answer exactly as sent.
import net from 'node:net';
import { freePort } from './ports';

export { freePort };

export interface RawConnection {
  socket: net.Socket;
  /** Everything received so far. */
  received: () => string;
  /** Resolves once `pattern` is in what was received (rejects if the connection closes first). */
  waitFor: (pattern: RegExp) => Promise<string>;
  /** Resolves when the connection closes (from either side), with everything received. */
  closed: Promise<string>;
}

export function connect(base: string): Promise<RawConnection> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let data = '';
    const waiters = new Set<() => void>();
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      data += chunk;
      for (const wake of [...waiters]) wake();
    });
    socket.on('error', () => {}); // a reset is a close here; what was received tells the rest
    const closed = new Promise<string>((r) => socket.once('close', () => r(data)));
    closed.then(() => [...waiters].forEach((wake) => wake()));
    const waitFor = (pattern: RegExp) =>
      new Promise<string>((res, rej) => {
        const check = () => {
          if (pattern.test(data)) {
            waiters.delete(check);
            res(data);
          } else if (socket.destroyed) {
            waiters.delete(check);
            rej(new Error(`connection closed before ${pattern}; received: ${data.slice(0, 500)}`));
          }
        };
        waiters.add(check);
        check();
      });
    socket.once('connect', () => resolve({ socket, received: () => data, waitFor, closed }));
    socket.once('error', reject);
  });
}

/**
 * Starts a POST of a snippet whose body is held back after its headers: the service answers `100 Continue` once it has
 * the request, so it is in flight from then until `finish()` sends the body.
 */
export async function heldCreate(
  base: string,
  authorization: string,
  code: string,
): Promise<{ conn: RawConnection; finish: () => void }> {
  const conn = await connect(base);
  const body = JSON.stringify({ code, language: 'plaintext' });
  conn.socket.write(
    `POST /snippets/ HTTP/1.1\r\nHost: test\r\nAuthorization: ${authorization}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
  );
  await conn.waitFor(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
  return { conn, finish: () => conn.socket.write(body) };
}

/** The final answer in what a connection received (after any 100 Continue): status, headers (lower-cased names), body. */
export function parseAnswer(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const final = raw.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
  const end = final.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = final.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: final.slice(end + 4) };
}

/** Resolves once nothing accepts connections on `port` (refused), checking every 100 ms. */
export async function refusedOn(port: number): Promise<void> {
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(false);
      });
      s.once('error', () => resolve(true));
    });
    if (refused) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `promise`, or a rejection naming `what` after `ms`: a detector of hangs, sized to be generous, never a measure. */
export function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const hang = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`hung: ${what} (more than ${ms} ms)`)), ms)),
  );
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}
