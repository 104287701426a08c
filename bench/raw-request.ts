// One HTTP request sent as given (any method, header or body fetch would refuse), with a deadline: its status, or how it failed.
import http from 'node:http';
import type { Socket } from 'node:net';

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
}

export type Outcome = { status: number; body: Buffer } | { failure: 'timeout' | 'socket' | 'client'; message: string };

/** What a kept-alive connection carried last: a connection that fails on reuse is explained by what came before. */
const lastOnSocket = new WeakMap<Socket, string>();

/** Enough of an answer to read a created snippet's id and code back; the rest is read and dropped. */
const KEEP_BYTES = 4 * 1024 * 1024;

export function sendRaw(agent: http.Agent, port: number, req: RawRequest, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
    };
    let r: http.ClientRequest;
    try {
      // Node's client frames no body of a GET, HEAD, OPTIONS or DELETE unless told its length: the bytes would follow the
      // request unannounced, and the service rightly takes them for a malformed next request and closes the connection.
      const framed =
        req.body !== undefined && !hasHeader(req, 'content-length') && !hasHeader(req, 'transfer-encoding');
      const headers = framed ? { ...req.headers, 'content-length': String(Buffer.byteLength(req.body!)) } : req.headers;
      r = http.request({
        host: '127.0.0.1',
        port,
        agent,
        method: req.method,
        path: req.path,
        headers,
        setHost: !hasHeader(req, 'host'),
      });
    } catch (err) {
      // Node refused to send it at all (an invalid header): the case is wrong, not the service.
      return resolve({ failure: 'client', message: err instanceof Error ? err.message : String(err) });
    }
    const timer = setTimeout(() => {
      done({ failure: 'timeout', message: `no answer within ${timeoutMs} ms` });
      r.destroy();
    }, timeoutMs);
    let answered: http.IncomingMessage | undefined;
    const cut = () => done({ status: answered!.statusCode ?? 0, body: Buffer.alloc(0) });
    let socket: Socket | undefined;
    r.on('socket', (s) => (socket = s));
    r.on('response', (res) => {
      answered = res;
      if (socket)
        lastOnSocket.set(
          socket,
          `${req.method} ${req.path.slice(0, 60)} → ${res.statusCode} (Connection: ${res.headers.connection ?? '-'})`,
        );
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (c: Buffer) => {
        if (kept < KEEP_BYTES) chunks.push(c);
        kept += c.length;
      });
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      // An answer cut short after its status line: the status still counts (413 and 431 close the connection early).
      res.on('error', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('aborted', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    // A write that fails after the answer came (the service refused a body it would not read) is still that answer.
    r.on('error', (err) => {
      if (answered) return cut();
      const before =
        r.reusedSocket && socket
          ? `; on a reused connection, after ${lastOnSocket.get(socket) ?? '?'}`
          : '; on a new connection';
      done({ failure: 'socket', message: `${err.message}${before}` });
    });
    r.end(req.body);
  });
}

function hasHeader(req: RawRequest, name: string): boolean {
  return Object.keys(req.headers ?? {}).some((k) => k.toLowerCase() === name);
}
