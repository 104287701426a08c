// GET /snippets/ in JSON without paging: the array streamed from the database in keyset batches, with back-pressure.
import type { Request, Response } from 'express';
import { snippetBatches } from '../../src/representations';

/** About 1 MB of 10 KB snippets per batch: memory stays flat however long the list is. */
const BATCH = 100;

export async function streamSnippetList(req: Request, res: Response): Promise<void> {
  res.status(200).type('application/json');
  if (req.method === 'HEAD') return void res.end();
  // The first byte leaves before the first query: a client sees the answer start at once.
  res.write('[');
  let first = true;
  try {
    for await (const batch of snippetBatches(BATCH)) {
      if (res.destroyed) return; // the client went away: stop reading
      let chunk = '';
      for (const snippet of batch) {
        chunk += (first ? '' : ',') + JSON.stringify(snippet);
        first = false;
      }
      if (!res.write(chunk)) await drainedOrClosed(res);
    }
    res.end(']');
  } catch (err) {
    // The status is sent already: cut the response so the client sees it incomplete, never a valid-looking list.
    res.destroy(err as Error);
  }
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
