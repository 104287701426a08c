// GET /snippets/ in JSON without paging: the array streamed from the database in keyset batches, with back-pressure.
import type { Request, Response } from 'express';
import { snippetJsonBatches } from '../../src/store/snippets';
import { JSON_TYPE, sendText } from './respond';

/** About 1 MB of 10 KB snippets per batch: memory stays flat however long the list is. */
const BATCH = 100;

export async function streamSnippetList(req: Request, res: Response): Promise<void> {
  // The first batch is read before the status, so a failing query is a clean error. A list of one batch (the
  // read tells, with no second query) goes out in one write with a length; a longer one streams.
  const batches = snippetJsonBatches(BATCH);
  const first = await batches.next();
  const { texts, more } = first.done ? { texts: [], more: false } : first.value;
  if (!more) return sendText(res, 200, JSON_TYPE, `[${texts.join(',')}]`);
  res.status(200).type('application/json');
  if (req.method === 'HEAD') return void res.end();
  try {
    res.write('[');
    if (!writeEach(res, texts, true)) await drainedOrClosed(res);
    for await (const batch of batches) {
      if (res.destroyed) return; // the client went away: stop reading
      if (!writeEach(res, batch.texts, false)) await drainedOrClosed(res);
    }
    res.end(']');
  } catch (err) {
    // The status is sent already: cut the response so the client sees it incomplete, never a valid-looking list.
    res.destroy(err as Error);
  }
}

/**
 * Writes a batch snippet by snippet, corked into one socket write: joining a batch first made a megabyte-long string
 * per batch, and with those the heap kept growing over repeated long lists. Returns false when the socket is full.
 */
function writeEach(res: Response, snippets: string[], first: boolean): boolean {
  res.cork();
  let ok = true;
  snippets.forEach((snippet, i) => {
    if (!first || i > 0) res.write(',');
    ok = res.write(snippet);
  });
  res.uncork();
  return ok;
}

/** Resolves when the socket can take more, or is gone; removes both listeners either way (a list has thousands of waits). */
function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** `?limit` asks for paging; without it the whole list is streamed. */
export function isPaged(req: Request): boolean {
  return new URL(req.originalUrl, 'http://x').searchParams.has('limit');
}

/** RFC 8288 Link to the next page, keeping the request's other query parameters. */
export function nextLink(req: Request, cursor: string): string {
  const url = new URL(req.originalUrl, `${req.protocol}://${req.get('host')}`);
  url.searchParams.set('cursor', cursor);
  return `<${url.href}>; rel="next"`;
}
