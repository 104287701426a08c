// The HTTP server's connections: stalled ones are dropped, and a shutdown drains the rest within a deadline.
import http, { type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import type { Logger } from '../src/log';
import { uninvitedTooLarge } from './http/body';

export interface DrainingServer {
  server: Server;
  /**
   * Stops accepting, answers every request still to be answered with `Connection: close`, closes kept-alive
   * connections once they have been idle for IDLE_GRACE_MS, and cuts what is still open after `timeoutMs`. Resolves
   * once every connection is closed, with how many requests the deadline cut.
   */
  drain(timeoutMs: number): Promise<number>;
}

export interface ServerTimeouts {
  /** A request's client sent nothing, or an answer's client read nothing, for this long (Node's server.timeout). */
  socketMs: number;
}

/** Node's defaults, kept and written down here so that README's figures have one source. */
export const KEEP_ALIVE_TIMEOUT_MS = 5000;
export const HEADERS_TIMEOUT_MS = 60000;
export const REQUEST_TIMEOUT_MS = 300000;

/**
 * While draining, a kept-alive connection is closed once idle this long. Closing one the moment it is idle (as Node's
 * server.close() does) fails the request a busy client is sending on it right then; one idle this long is unlikely to
 * be in use, and one in use before that gets its answer with Connection: close. The fault bench measured the difference.
 */
export const IDLE_GRACE_MS = 500;
const SWEEP_MS = 100;

export function drainingServer(handler: RequestListener, timeouts: ServerTimeouts, log: Logger): DrainingServer {
  const inFlight = new Map<Socket, ServerResponse>();
  /** Every open connection, and since when it has had no request (a new one: since it connected). */
  const idleSince = new Map<Socket, number>();
  let draining = false;
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    // A request that came on a kept-alive connection after the signal is answered, and its connection then closed.
    if (draining) res.setHeader('Connection', 'close');
    const socket = req.socket;
    inFlight.set(socket, res);
    res.once('close', () => {
      if (inFlight.get(socket) !== res) return;
      inFlight.delete(socket);
      idleSince.set(socket, Date.now());
    });
    handler(req, res);
  };
  const server = http.createServer(onRequest);
  answerHalfClosed(server);
  // Expect: 100-continue (RFC 9110 §10.1.1): with this listener Node no longer invites every body itself; one declared
  // over the limit is not invited, and the app refuses it unread (uninvitedTooLarge, server/http/body.ts).
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (!uninvitedTooLarge(req)) res.writeContinue();
    onRequest(req, res);
  });
  server.on('connection', (socket: Socket) => {
    idleSince.set(socket, Date.now());
    socket.once('close', () => idleSince.delete(socket));
  });
  server.timeout = timeouts.socketMs;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  // Node's socket timer: it fires after timeouts.socketMs with no byte moved, and never while a write makes progress.
  server.on('timeout', (socket: Socket) => {
    const res = inFlight.get(socket);
    if (res && res.req.complete && socket.writableLength === 0) {
      // Nothing waits to be sent: the service is still working on the answer, which is no fault of the client's
      // (SHUTDOWN_TIMEOUT_MS and the stores' own deadlines bound that wait).
      socket.setTimeout(timeouts.socketMs);
      return;
    }
    // An idle keep-alive connection times out through the same timer: only a stalled request or answer is worth a record.
    if (res) {
      const stalled = res.req.complete ? 'stopped reading its answer' : 'stopped sending its request';
      log.warn(
        { method: res.req.method, url: res.req.url, afterMs: timeouts.socketMs },
        `closed a connection whose client ${stalled}`,
      );
    }
    socket.destroy();
  });

  function drain(timeoutMs: number): Promise<number> {
    draining = true;
    for (const res of inFlight.values()) if (!res.headersSent) res.setHeader('Connection', 'close');
    return new Promise((resolve) => {
      let cut = 0;
      // Idle connections, including those whose answer said keep-alive before the signal and has ended since.
      const sweep = setInterval(() => {
        const now = Date.now();
        for (const [socket, since] of idleSince)
          if (!inFlight.has(socket) && now - since >= IDLE_GRACE_MS) socket.destroy();
      }, SWEEP_MS);
      const deadline = setTimeout(() => {
        cut = inFlight.size;
        for (const socket of idleSince.keys()) socket.destroy();
      }, timeoutMs);
      // net's close, not http's: that one would also close every connection idle at this instant (see IDLE_GRACE_MS).
      net.Server.prototype.close.call(server, () => {
        clearInterval(sweep);
        clearTimeout(deadline);
        resolve(cut);
      });
    });
  }
  return { server, drain };
}

/**
 * A client may half-close its connection once its request is sent (TCP, RFC 9293 §3.6.1; `nc -N`, scripts) and still
 * read the answer: HTTP/1.1 frames a request by its length, not by the connection's end. By default Node's HTTP server
 * ends its side of the connection as soon as the client's FIN arrives, so an answer still being made was never sent,
 * whatever the procedure did (a create committed, no 201). `httpAllowHalfOpen` (set in Node's http.Server constructor,
 * read by its socketOnEnd) makes it finish the answer in progress and then close; test/server/connections.test.ts
 * holds it to that.
 */
function answerHalfClosed(server: Server): void {
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
}
