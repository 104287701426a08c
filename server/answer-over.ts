// When an answer is over for the access log: sent, or its client gone first, and then what the service made of it.
import type { ServerResponse } from 'node:http';

/** The methods that write: a client gone before their answer may still have its write committed. */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * How long a write whose client went away is waited for before its record is written without its outcome. Its own
 * bounds (statement deadlines, the highlighting deadline, write retries) end it well before this.
 */
export const GONE_WAIT_MS = 60_000;

/** A request whose client went away before its answer was sent. */
export interface Gone {
  /** The answer's head had been sent when the client went (a cut answer: its status is the one sent). */
  headSent: boolean;
  /** The status of the answer the service made after the client went, when it made one. */
  answer?: number;
}

/**
 * Calls `done` once when the answer is over: when it was sent (no argument); for a request whose client went away
 * first, at once for a read, and for a write once the service has made its answer (res.end() still emits 'prefinish'
 * on a closed connection: Node's OutgoingMessage) or after GONE_WAIT_MS.
 */
export function whenAnswerOver(res: ServerResponse, done: (gone?: Gone) => void): void {
  const sent = () => {
    res.off('close', closed);
    done();
  };
  const closed = () => {
    res.off('finish', sent);
    if (res.writableFinished) return done();
    const headSent = res.headersSent;
    if (res.writableEnded) return done({ headSent, answer: res.statusCode });
    if (!WRITES.has(res.req.method ?? '')) return done({ headSent });
    const ended = () => {
      clearTimeout(timer);
      done({ headSent, answer: res.statusCode });
    };
    const timer = setTimeout(() => {
      res.off('prefinish', ended);
      done({ headSent });
    }, GONE_WAIT_MS).unref();
    res.once('prefinish', ended);
  };
  res.once('finish', sent);
  res.once('close', closed);
}

/** What became of the write of a request whose client went away: known from the answer the service made. */
export function writeOutcome(
  method: string | undefined,
  gone: Gone,
): 'committed' | 'not committed' | 'unknown' | undefined {
  if (!WRITES.has(method ?? '')) return undefined;
  if (gone.answer === undefined) return 'unknown';
  return gone.answer >= 200 && gone.answer < 300 ? 'committed' : 'not committed';
}
