// clientGoneSignal(res): aborts when the client closes its connection before the answer, never after it; the request's
// context carries it (server/auth/context.ts).
import { expect } from 'chai';
import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestContext } from '../../../server/auth/context';
import { clientGoneSignal } from '../../../server/http/client-gone';
import { testRuntime } from '../../support/runtime';

/** A server whose one route hands its request's signal to `seen`, and answers only if `answer`. */
async function serve(answer: boolean, seen: (signal: AbortSignal, closed: Promise<void>) => void) {
  const app = express();
  app.locals.runtime = testRuntime();
  app.get('/', (req, res) => {
    req.requester = { user: null, auth: null } as never;
    const signal = clientGoneSignal(res);
    expect(requestContext(req).signal).to.equal(signal);
    seen(signal, new Promise((resolve) => res.once('close', () => resolve())));
    if (answer) res.end('ok');
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('clientGoneSignal', () => {
  it('aborts when the client hangs up before the answer', async () => {
    let request: http.ClientRequest | undefined;
    const aborted = new Promise<void>((resolve, reject) => {
      void serve(false, (signal) => {
        signal.addEventListener('abort', () => resolve());
        request!.destroy();
      }).then(({ server, port }) => {
        request = http.get({ port, host: '127.0.0.1', path: '/' }).on('error', () => {});
        aborted.finally(() => server.close()).catch(reject);
      });
    });
    await aborted;
  });

  it('does not abort once the answer is written, when the connection closes after it', async () => {
    let result: { signal: AbortSignal; closed: Promise<void> } | undefined;
    const { server, port } = await serve(true, (signal, closed) => (result = { signal, closed }));
    try {
      await new Promise<void>((resolve, reject) => {
        http
          .get({ port, host: '127.0.0.1', path: '/', agent: false }, (res) => res.resume().on('end', resolve))
          .on('error', reject);
      });
      await result!.closed;
      expect(result!.signal.aborted).to.equal(false);
    } finally {
      server.close();
    }
  });
});
