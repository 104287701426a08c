// /snippets/<pk>/revisions/…: the history of a snippet, a revision, the diff between two, restoring one.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import supertest from 'supertest';
import { select } from '../../src/store/select';
import { makeUser, resetDatabase } from '../support/db';
import { api, app, basic } from '../support/http';
import { testRuntime, testStore } from '../support/runtime';

const as = (user: string) => ({ Authorization: basic(user) });

async function create(body: Record<string, unknown>): Promise<number> {
  return (await api().post('/snippets/').set(as('alice')).send(body).expect(201)).body.id;
}

async function put(id: number, body: Record<string, unknown>): Promise<void> {
  await api().put(`/snippets/${id}/`).set(as('alice')).send(body).expect(200);
}

const revisionCount = async (id: number) =>
  Number(
    (
      await select<{ n: number }>(testStore(), 'SELECT COUNT(*) AS n FROM snippet_revisions WHERE snippet_id = ?', [id])
    )[0]!.n,
  );

describe('/snippets/<pk>/revisions/', () => {
  let id: number;
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    await makeUser('bob');
    id = await create({ title: 'first', code: 'a = 1\n', language: 'python' });
    await put(id, { title: 'second', code: 'a = 2\n' });
    await put(id, { code: 'a = 2\nb = 3\n', language: 'ruby' });
  });

  describe('GET /snippets/<pk>/revisions/', () => {
    it('responds 200 with every save, newest first, each with its number, time and fields', async () => {
      const res = await api().get(`/snippets/${id}/revisions/`).expect(200);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.body.map((r: { revision: number }) => r.revision)).to.deep.equal([3, 2, 1]);
      expect(Object.keys(res.body[0])).to.deep.equal([
        'revision',
        'saved',
        'title',
        'code',
        'linenos',
        'language',
        'style',
      ]);
      expect(res.body[0]).to.include({
        revision: 3,
        title: 'second',
        code: 'a = 2\nb = 3\n',
        linenos: false,
        language: 'ruby',
        style: 'friendly',
      });
      expect(res.body[2]).to.include({ revision: 1, title: 'first', code: 'a = 1\n', language: 'python' });
      for (const r of res.body) expect(new Date(r.saved).toISOString()).to.equal(r.saved);
      expect(Date.parse(res.body[0].saved)).to.be.at.least(Date.parse(res.body[2].saved));
    });

    it('pages with limit and cursor, linked by rel="next"', async () => {
      const first = await api().get(`/snippets/${id}/revisions/?limit=2`).expect(200);
      expect(first.body.map((r: { revision: number }) => r.revision)).to.deep.equal([3, 2]);
      const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))?.[1];
      expect(next).to.be.a('string');
      const url = new URL(next!);
      const second = await api()
        .get(url.pathname + url.search)
        .expect(200);
      expect(second.body.map((r: { revision: number }) => r.revision)).to.deep.equal([1]);
      expect(second.headers.link).to.equal(undefined);
    });

    it('responds 404 for an unknown snippet, 404 for a cursor it did not make (with a limit: the whole list ignores a cursor, as the snippet list does), 400 for a bad limit', async () => {
      expect((await api().get('/snippets/999999/revisions/').expect(404)).body).to.deep.equal({ detail: 'Not found.' });
      await api().get(`/snippets/${id}/revisions/?limit=2&cursor=abc`).expect(404);
      expect((await api().get(`/snippets/${id}/revisions/?limit=0`).expect(400)).body).to.have.property('limit');
    });
  });

  describe('GET /snippets/<pk>/revisions/<n>/', () => {
    it('responds 200 with that revision', async () => {
      const res = await api().get(`/snippets/${id}/revisions/2/`).expect(200);
      expect(res.body).to.include({ revision: 2, title: 'second', code: 'a = 2\n', language: 'python' });
    });

    it('responds 404 for an unknown revision, a revision of another snippet, or n that is not digits', async () => {
      const other = await create({ code: 'other' });
      await api().get(`/snippets/${id}/revisions/4/`).expect(404);
      await api().get(`/snippets/${id}/revisions/0/`).expect(404);
      await put(other, { code: 'other 2' });
      await api().get(`/snippets/${id}/revisions/abc/`).expect(404);
      await api().get(`/snippets/${id}/revisions/-1/`).expect(404);
      await api().get(`/snippets/${other}/revisions/3/`).expect(404);
    });
  });

  describe('GET /snippets/<pk>/revisions/<n>/diff/', () => {
    it('responds 200 text/x-diff: the code from revision n-1 to n, the revisions, titles and languages in the header lines', async () => {
      const res = await api().get(`/snippets/${id}/revisions/3/diff/`).expect(200);
      expect(res.headers['content-type']).to.equal('text/x-diff; charset=utf-8');
      const lines = res.text.split('\n');
      expect(lines).to.include('--- snippet-' + id + '\trevision 2, title "second", language python');
      expect(lines).to.include('+++ snippet-' + id + '\trevision 3, title "second", language ruby');
      expect(lines).to.include('+b = 3');
    });

    it('diffs from ?from=m', async () => {
      const res = await api().get(`/snippets/${id}/revisions/3/diff/?from=1`).expect(200);
      expect(res.text)
        .to.include('-a = 1')
        .and.include('+a = 2')
        .and.include('+b = 3')
        .and.include('revision 1, title "first"');
    });

    it('answers an empty body when the code is the same', async () => {
      await put(id, { title: 'only the title', code: 'a = 2\nb = 3\n' });
      const res = await api().get(`/snippets/${id}/revisions/4/diff/`).expect(200);
      expect(res.text).to.equal('');
      expect(res.headers['content-type']).to.equal('text/x-diff; charset=utf-8');
    });

    it('is a patch that `patch -p0` applies to revision n-1 to give revision n', async function () {
      const dir = await mkdtemp(path.join(tmpdir(), 'snippets-patch-'));
      try {
        await writeFile(path.join(dir, `snippet-${id}`), 'a = 1\n');
        const patch = (await api().get(`/snippets/${id}/revisions/3/diff/?from=1`).expect(200)).text;
        await new Promise<void>((resolve, reject) => {
          const child = execFile('patch', ['-p0'], { cwd: dir }, (err) => (err ? reject(err) : resolve()));
          child.stdin!.end(patch);
        });
        expect(await readFile(path.join(dir, `snippet-${id}`), 'utf8')).to.equal('a = 2\nb = 3\n');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('responds 400 with a field map when from is not a revision of this snippet', async () => {
      const other = await create({ code: 'other' });
      await put(other, { code: 'other 2' });
      for (const from of ['9', '0']) {
        const res = await api().get(`/snippets/${id}/revisions/3/diff/?from=${from}`).expect(400);
        expect(res.body).to.have.property('from').that.is.an('array').with.length(1);
      }
      expect((await api().get(`/snippets/${id}/revisions/3/diff/?from=abc`).expect(400)).body).to.have.property('from');
    });

    it('of two 100,000-character codes too unlike to diff within the deadline: 422 {"detail"}, the event loop free meanwhile', async () => {
      const big = (
        await api()
          .post('/snippets/')
          .set(as('alice'))
          .send({ code: 'a\n'.repeat(50000) })
          .expect(201)
      ).body.id;
      await put(big, { code: 'b\n'.repeat(50000) });
      const order: string[] = [];
      // The differ's diff, watched: `started` resolves once the request has handed it its job.
      const { differ } = testRuntime();
      const own = Object.getOwnPropertyDescriptor(differ, 'diff');
      let started!: () => void;
      const diffStarted = new Promise<void>((resolve) => (started = resolve));
      differ.diff = (job) => {
        const answer = Object.getPrototypeOf(differ).diff.call(differ, job) as ReturnType<typeof differ.diff>;
        started();
        return answer;
      };
      let res;
      try {
        const diff = api()
          .get(`/snippets/${big}/revisions/2/diff/`)
          .then((res) => (order.push('diff'), res));
        // Answered while the diff runs: the diff is computed off the event loop.
        await diffStarted;
        await api()
          .get('/healthz')
          .expect(200)
          .then(() => order.push('healthz'));
        res = await diff;
      } finally {
        if (own) Object.defineProperty(differ, 'diff', own);
        else delete (differ as Partial<typeof differ>).diff;
      }
      expect(res.status).to.equal(422);
      expect(res.body).to.deep.equal({
        detail:
          'These revisions differ too much to be diffed within the deadline; diff two revisions closer to each other.',
      });
      expect(order).to.deep.equal(['healthz', 'diff']);
    });

    it('responds 404 for an unknown revision or snippet, 406 for an Accept it cannot satisfy', async () => {
      await api().get(`/snippets/${id}/revisions/9/diff/`).expect(404);
      await api().get('/snippets/999999/revisions/1/diff/').expect(404);
      await api().get(`/snippets/${id}/revisions/3/diff/`).set('Accept', 'image/png').expect(406);
      await api().get(`/snippets/${id}/revisions/3/diff/`).set('Accept', 'text/x-diff').expect(200);
    });
  });

  describe('POST /snippets/<pk>/revisions/<n>/restore/', () => {
    it("as the owner: responds 200 with the snippet at revision n's fields, stored as a new revision, highlighted again", async () => {
      const res = await api().post(`/snippets/${id}/revisions/1/restore/`).set(as('alice')).expect(200);
      expect(res.body).to.deep.equal({
        id,
        owner: 'alice',
        title: 'first',
        code: 'a = 1\n',
        linenos: false,
        language: 'python',
        style: 'friendly',
      });
      expect(res.headers.etag).to.equal('"4"');
      expect((await api().get(`/snippets/${id}/`).expect(200)).body).to.deep.equal(res.body);
      const [latest] = (await api().get(`/snippets/${id}/revisions/?limit=1`).expect(200)).body;
      expect(latest).to.include({ revision: 4, title: 'first', code: 'a = 1\n', language: 'python' });
      const highlighted = (await api().get(`/snippets/${id}/highlight/`).expect(200)).text;
      expect(highlighted).to.include('<h2>first</h2>');
    });

    it('responds 404 for an unknown revision, and stores nothing', async () => {
      await api().post(`/snippets/${id}/revisions/9/restore/`).set(as('alice')).expect(404);
      expect(await revisionCount(id)).to.equal(3);
    });

    it('as another user: responds 403 without WWW-Authenticate, and changes nothing', async () => {
      const res = await api().post(`/snippets/${id}/revisions/1/restore/`).set(as('bob')).expect(403);
      expect(res.headers['www-authenticate']).to.equal(undefined);
      expect(res.body).to.deep.equal({ detail: 'You do not have permission to perform this action.' });
      expect((await api().get(`/snippets/${id}/`).expect(200)).body.code).to.equal('a = 2\nb = 3\n');
      expect(await revisionCount(id)).to.equal(3);
    });

    it('anonymous: responds 401 with WWW-Authenticate', async () => {
      const res = await api().post(`/snippets/${id}/revisions/1/restore/`).expect(401);
      expect(res.headers['www-authenticate']).to.equal('Basic realm="api"');
      expect(await revisionCount(id)).to.equal(3);
    });

    it('with a session: refuses a restore without the CSRF token (403), does it with the token', async () => {
      const agent = supertest.agent(app());
      const page = await agent.get('/api-auth/login/').expect(200);
      const csrf = () =>
        /csrftoken=([^;]+)/.exec(([] as string[]).concat(page.headers['set-cookie'] ?? []).join(';'))?.[1] ?? '';
      let token = csrf();
      const login = await agent
        .post('/api-auth/login/')
        .set('X-CSRFToken', token)
        .type('form')
        .send({ username: 'alice', password: 'alicepass' })
        .expect(302);
      token =
        /csrftoken=([^;]+)/.exec(([] as string[]).concat(login.headers['set-cookie'] ?? []).join(';'))?.[1] ?? token;
      const refused = await agent.post(`/snippets/${id}/revisions/1/restore/`).expect(403);
      expect(refused.body.detail).to.match(/^CSRF Failed/);
      expect(await revisionCount(id)).to.equal(3);
      await agent.post(`/snippets/${id}/revisions/1/restore/`).set('X-CSRFToken', token).expect(200);
      expect(await revisionCount(id)).to.equal(4);
    });

    it('is a POST only: GET answers 405 with Allow', async () => {
      const res = await api().get(`/snippets/${id}/revisions/1/restore/`).set(as('alice')).expect(405);
      expect(res.headers.allow).to.equal('POST, OPTIONS');
    });

    it('HEAD, as GET without a body, is not offered either: 405, and Allow does not list it (as DRF, for a view without GET)', async () => {
      const res = await api().head(`/snippets/${id}/revisions/1/restore/`).set(as('alice')).expect(405);
      expect(res.headers.allow).to.equal('POST, OPTIONS');
      const options = await api().options(`/snippets/${id}/revisions/1/restore/`).set(as('alice')).expect(200);
      expect(options.headers.allow).to.equal('POST, OPTIONS');
    });
  });

  describe('OPTIONS', () => {
    it('describes the history paths; restore lists no fields, even to the owner', async () => {
      const list = await api().options(`/snippets/${id}/revisions/`).set(as('alice')).expect(200);
      expect(list.body).to.include({ name: 'Snippet Revisions' });
      expect(list.body).not.to.have.property('actions');
      expect(list.headers.allow).to.equal('GET, HEAD, OPTIONS');
      const diff = await api().options(`/snippets/${id}/revisions/1/diff/`).expect(200);
      expect(diff.body).to.include({ name: 'Snippet Revision Diff' });
      const restore = await api().options(`/snippets/${id}/revisions/1/restore/`).set(as('alice')).expect(200);
      expect(restore.body).to.include({ name: 'Snippet Revision Restore' });
      expect(restore.body).not.to.have.property('actions');
    });
  });

  describe('DELETE /snippets/<pk>/', () => {
    it("deletes the snippet's revisions with it", async () => {
      const other = await create({ code: 'kept' });
      await api().delete(`/snippets/${id}/`).set(as('alice')).expect(204);
      expect(await revisionCount(id)).to.equal(0);
      expect(await revisionCount(other)).to.equal(1);
      await api().get(`/snippets/${id}/revisions/`).expect(404);
    });
  });

  describe('saves', () => {
    it('store one revision per create and per successful update, none for a refused one', async () => {
      expect(await revisionCount(id)).to.equal(3);
      await api().put(`/snippets/${id}/`).set(as('bob')).send({ code: 'x' }).expect(403);
      await api().put(`/snippets/${id}/`).set(as('alice')).send({ code: '' }).expect(400);
      expect(await revisionCount(id)).to.equal(3);
    });
  });
});
