// GET /snippets/ at scale: streamed with back-pressure, keyset paging with Link, conditional requests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { api, app, basic } from '../support/http';
import { testStore } from '../support/runtime';

function linkNext(header: string | undefined): string | undefined {
  const m = /<([^>]+)>;\s*rel="next"/.exec(header ?? '');
  return m ? new URL(m[1]!).pathname + new URL(m[1]!).search : undefined;
}

describe('GET /snippets/ at scale', () => {
  let ownerId: number;
  beforeEach(async () => {
    await resetDatabase();
    ownerId = (await makeUser('alice')).id;
  });

  describe('with ?limit=N', () => {
    it('answers pages of the same array shape, linked by rel="next", visiting every snippet exactly once while others are added', async () => {
      const base = Date.now() - 3600_000; // all before the snippets the test adds
      await testStore().models.Snippet.bulkCreate(
        Array.from({ length: 25 }, (_, i) => ({ code: `s${i}`, ownerId, created: new Date(base + i) })),
      );
      const seen: string[] = [];
      let next: string | undefined = '/snippets/?limit=4';
      let added = 0;
      while (next) {
        const res = await api().get(next).expect(200);
        expect(res.body).to.be.an('array');
        expect(res.body.length).to.be.at.most(4);
        seen.push(...res.body.map((s: { code: string }) => s.code));
        next = linkNext(res.headers.link);
        if (added < 5) {
          await api()
            .post('/snippets/')
            .set('Authorization', basic('alice'))
            .send({ code: `new${added++}` })
            .expect(201);
        }
      }
      const expected = [
        ...Array.from({ length: 25 }, (_, i) => `s${i}`),
        ...Array.from({ length: 5 }, (_, i) => `new${i}`),
      ];
      expect(seen).to.deep.equal(expected);
    });

    it('answers no Link on the last page', async () => {
      await testStore().models.Snippet.bulkCreate([{ code: 'a', ownerId }]);
      const res = await api().get('/snippets/?limit=10').expect(200);
      expect(res.body).to.have.length(1);
      expect(res.headers).not.to.have.property('link');
    });

    it('answers no Link on a last page that is exactly full', async () => {
      await testStore().models.Snippet.bulkCreate(Array.from({ length: 4 }, (_, i) => ({ code: `s${i}`, ownerId })));
      const first = await api().get('/snippets/?limit=2').expect(200);
      const last = await api().get(linkNext(first.headers.link)!).expect(200);
      expect(last.body.map((s: { code: string }) => s.code)).to.deep.equal(['s2', 's3']);
      expect(last.headers).not.to.have.property('link');
    });

    it('responds 404 "Invalid cursor" for a cursor it did not make', async () => {
      const res = await api().get('/snippets/?limit=2&cursor=not-a-cursor').expect(404);
      expect(res.body).to.deep.equal({ detail: 'Invalid cursor' });
    });

    for (const limit of ['0', 'abc', '1001', '-1']) {
      it(`responds 400 on limit=${limit}`, async () => {
        const res = await api().get(`/snippets/?limit=${limit}`).expect(400);
        expect(res.body).to.have.property('limit');
      });
    }
  });

  describe('without paging', () => {
    it('answers a list of one batch in one piece, with Content-Length', async () => {
      await testStore().models.Snippet.bulkCreate(Array.from({ length: 3 }, (_, i) => ({ code: `s${i}`, ownerId })));
      const res = await api().get('/snippets/').expect(200);
      expect(res.headers['content-length']).to.equal(String(Buffer.byteLength(res.text)));
      expect(res.body.map((s: { code: string }) => s.code)).to.deep.equal(['s0', 's1', 's2']);
      await resetDatabase();
      expect((await api().get('/snippets/').expect(200)).text).to.equal('[]');
    });

    it('streams the whole array in order, and a slow reader makes the server wait instead of buffering', async function () {
      this.timeout(600_000);
      const code = 'x'.repeat(20000);
      const base = Date.now() - 3600_000; // all before the snippets the test adds
      // In chunks: one 30 MB INSERT would exceed MariaDB's max_allowed_packet.
      for (let chunk = 0; chunk < 1500; chunk += 250) {
        await testStore().models.Snippet.bulkCreate(
          Array.from({ length: 250 }, (_, i) => ({
            code,
            title: `t${chunk + i}`,
            ownerId,
            created: new Date(base + chunk + i),
          })),
        );
      }
      const total = 1500 * 20000;
      // Thousands of back-pressure waits must not pile up listeners on the response.
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(w.name);
      process.on('warning', onWarning);
      const server = http.createServer(app());
      let serverRes: http.ServerResponse | undefined;
      server.on('request', (_req, res) => (serverRes = res));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      try {
        const { port } = server.address() as AddressInfo;
        const body = await new Promise<string>((resolve, reject) => {
          http
            .get(`http://127.0.0.1:${port}/snippets/`, (res) => {
              expect(res.statusCode).to.equal(200);
              expect(res.headers['content-type']).to.match(/^application\/json/);
              res.pause();
              // While the client reads nothing, the server holds at most about a batch, not the 30 MB list.
              setTimeout(() => {
                try {
                  expect(serverRes, 'server response').to.not.equal(undefined);
                  expect(serverRes!.writableLength).to.be.below(total / 3);
                } catch (err) {
                  return reject(err);
                }
                const chunks: Buffer[] = [];
                res.on('data', (c: Buffer) => chunks.push(c));
                res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
                // A list cut short by the server is a failure here, not a wait for an end that never comes.
                res.on('error', reject);
                res.on('aborted', () => reject(new Error('the server cut the list short')));
                res.resume();
              }, 700);
            })
            .on('error', reject);
        });
        const list = JSON.parse(body) as { title: string }[];
        expect(list).to.have.length(1500);
        expect(list.map((s) => s.title)).to.deep.equal(Array.from({ length: 1500 }, (_, i) => `t${i}`));
        await new Promise((r) => setImmediate(r));
        expect(warnings).not.to.include('MaxListenersExceededWarning');
      } finally {
        process.off('warning', onWarning);
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    });
  });

  describe('conditional GET', () => {
    it('answers an ETag on a snippet and a user, and 304 for a matching If-None-Match', async () => {
      const id = (await api().post('/snippets/').set('Authorization', basic('alice')).send({ code: 'x' }).expect(201))
        .body.id;
      for (const path of [`/snippets/${id}/`, `/users/${ownerId}/`]) {
        const first = await api().get(path).expect(200);
        expect(first.headers.etag).to.be.a('string');
        const again = await api().get(path).set('If-None-Match', String(first.headers.etag)).expect(304);
        expect(again.text ?? '').to.equal('');
      }
      const first = await api().get(`/snippets/${id}/`).expect(200);
      expect((await api().get(`/snippets/${id}/`).expect(200)).headers.etag).to.equal(first.headers.etag);
      // A change of the same length is another version too.
      await api().put(`/snippets/${id}/`).set('Authorization', basic('alice')).send({ code: 'y' }).expect(200);
      const changed = await api().get(`/snippets/${id}/`).set('If-None-Match', String(first.headers.etag)).expect(200);
      expect(changed.body.code).to.equal('y');
      expect(changed.headers.etag).to.be.a('string').and.not.equal(first.headers.etag);
    });
  });
});
