// An unpaged list in JSON: the list procedure's pages streamed one after another, with back-pressure, so a list of
// any length costs flat memory.
import type { Response } from 'express';
import { JSON_TYPE, sendText } from '../http/respond';
import type { Page } from './outcome';

/** About 1 MB of 10 KB snippets per page. */
export const BATCH = 100;

/** Streams the pages `pageAfter` returns, from the first (no cursor) to the last (no `next`). */
export async function streamList(res: Response, pageAfter: (cursor?: string) => Promise<Page>): Promise<void> {
  // The first page is read before the status, so a failing read is a clean error. A list of one page goes out in one
  // write with a length (and an ETag); a longer one streams.
  const first = await pageAfter();
  if (!first.next) return sendText(res, 200, JSON_TYPE, JSON.stringify(first.items));
  res.status(200).type('application/json');
  if (res.req.method === 'HEAD') return void res.end();
  try {
    res.write('[');
    let page = first;
    let leading = true;
    for (;;) {
      // Waits only while the socket itself is full. A corked batch makes write() answer false once the response has
      // buffered a high-water mark, even when uncork() then hands all of it to a socket with room; no 'drain' follows
      // that on Node 22, and waiting for one hung the list.
      if (!writeEach(res, page.items, leading) && res.socket?.writableNeedDrain) await drainedOrClosed(res);
      if (res.destroyed) return; // the client went away: stop reading
      if (!page.next) break;
      leading = false;
      page = await pageAfter(page.next);
    }
    res.end(']');
  } catch (err) {
    // The status is sent already: cut the response so the client sees it incomplete, never a valid-looking list.
    res.destroy(err as Error);
  }
}

/** Writes a page item by item, corked into one socket write; returns false when the socket is full. */
function writeEach(res: Response, items: unknown[], leading: boolean): boolean {
  res.cork();
  let ok = true;
  items.forEach((item, i) => {
    if (!leading || i > 0) res.write(',');
    ok = res.write(JSON.stringify(item));
  });
  res.uncork();
  return ok;
}

/** Resolves when the socket can take more, or is gone; removes its listeners either way (a list has thousands of waits). */
function drainedOrClosed(res: Response): Promise<void> {
  const socket = res.socket;
  return new Promise((resolve) => {
    const done = () => {
      socket?.off('drain', done);
      res.off('close', done);
      resolve();
    };
    socket?.on('drain', done);
    res.on('close', done);
  });
}
