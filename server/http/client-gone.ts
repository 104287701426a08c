// A request's signal that aborts when its client goes away before the answer is written: what the procedures' reads
// it started are cancelled by (src/context.ts `signal`).
import type { Response } from 'express';

const signals = new WeakMap<Response, AbortSignal>();

/** One signal per request, whichever procedures it calls (a batch, a page's several). */
export function clientGoneSignal(res: Response): AbortSignal {
  let signal = signals.get(res);
  if (!signal) {
    const controller = new AbortController();
    // 'close' follows the end of an answer too, and the connection's end before it: only the latter is a client gone.
    const closed = () => {
      if (!res.writableEnded) controller.abort();
    };
    if (res.closed) closed();
    else res.once('close', closed);
    signals.set(res, (signal = controller.signal));
  }
  return signal;
}
