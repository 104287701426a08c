// If-Match on PUT, DELETE and restore (RFC 9110 §13.1.1): the snippet's ETag names its revision; a write whose tag no
// longer matches is refused with 412 and changes nothing, however many clients race.
import { expect } from 'chai';
import { select } from '../../src/store/select';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic } from '../support/http';
import { testStore } from '../support/runtime';

const as = (user: string) => ({ Authorization: basic(user) });
const PRECONDITION = { detail: 'The snippet has changed since the version named in If-Match.' };

const revisionCount = async (id: number) =>
  Number(
    (
      await select<{ n: number }>(testStore(), 'SELECT COUNT(*) AS n FROM snippet_revisions WHERE snippet_id = ?', [id])
    )[0]!.n,
  );

describe('conditional writes (If-Match)', () => {
  let id: number;
  let etag: string;
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    id = (await api().post('/snippets/').set(as('alice')).send({ code: 'v1' }).expect(201)).body.id;
    etag = String((await api().get(`/snippets/${id}/`).expect(200)).headers.etag);
  });

  describe('POST /snippets/', () => {
    it("answers 201 with the new snippet's ETag, revision 1, which If-Match then takes", async () => {
      const res = await api().post('/snippets/').set(as('alice')).send({ code: 'new' }).expect(201);
      expect(res.headers.etag).to.equal('"1"');
      await api()
        .put(`/snippets/${res.body.id}/`)
        .set(as('alice'))
        .set('If-Match', res.headers.etag!)
        .send({ code: 'newer' })
        .expect(200);
    });

    it('the browsable answer carries no JSON ETag', async () => {
      const res = await api().post('/snippets/').set(as('alice')).set('Accept', 'text/html').send({ code: 'x' });
      expect(res.headers.etag).to.not.equal('"1"');
    });
  });

  describe('GET /snippets/<pk>/', () => {
    it('answers a strong ETag naming the revision, the same on every read, and 304 for it in If-None-Match', async () => {
      expect(etag).to.equal('"1"');
      expect((await api().get(`/snippets/${id}/?format=json`).expect(200)).headers.etag).to.equal(etag);
      expect((await api().head(`/snippets/${id}/`).expect(200)).headers.etag).to.equal(etag);
      await api().get(`/snippets/${id}/`).set('If-None-Match', etag).expect(304);
    });

    it('answers another ETag after every save, one of identical fields included', async () => {
      await api().put(`/snippets/${id}/`).set(as('alice')).send({ code: 'v1' }).expect(200);
      const after = (await api().get(`/snippets/${id}/`).set('If-None-Match', etag).expect(200)).headers.etag;
      expect(after).to.equal('"2"');
    });

    it('the browsable page keeps a validator of its own bytes, not the JSON one', async () => {
      const page = await api().get(`/snippets/${id}/`).set('Accept', 'text/html').expect(200);
      expect(page.headers.etag).to.be.a('string').and.not.equal(etag);
    });
  });

  describe('PUT /snippets/<pk>/', () => {
    it('with the current ETag: 200, saved', async () => {
      const res = await api()
        .put(`/snippets/${id}/`)
        .set(as('alice'))
        .set('If-Match', etag)
        .send({ code: 'v2' })
        .expect(200);
      expect(res.body.code).to.equal('v2');
      expect(res.headers.etag, 'a PUT answers the new revision (issue 29)').to.equal('"2"');
    });

    it('with an ETag of an earlier revision: 412 {"detail"}, nothing changes', async () => {
      await api().put(`/snippets/${id}/`).set(as('alice')).send({ code: 'v2' }).expect(200);
      const res = await api()
        .put(`/snippets/${id}/`)
        .set(as('alice'))
        .set('If-Match', etag)
        .send({ code: 'stale' })
        .expect(412);
      expect(res.body).to.deep.equal(PRECONDITION);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect((await api().get(`/snippets/${id}/`).expect(200)).body.code).to.equal('v2');
      expect(await revisionCount(id)).to.equal(2);
    });

    it('with *: 200 while the snippet exists', async () => {
      await api().put(`/snippets/${id}/`).set(as('alice')).set('If-Match', '*').send({ code: 'v2' }).expect(200);
    });

    it('with several ETags: 200 when one of them is current, 412 when none is', async () => {
      await api()
        .put(`/snippets/${id}/`)
        .set(as('alice'))
        .set('If-Match', `"7", ${etag}`)
        .send({ code: 'v2' })
        .expect(200);
      await api().put(`/snippets/${id}/`).set(as('alice')).set('If-Match', '"7", "1"').send({ code: 'v3' }).expect(412);
    });

    it('with the weak form of the current ETag, or something that is no ETag: 412 (If-Match compares strongly)', async () => {
      for (const value of [`W/${etag}`, '1', 'garbage', '""']) {
        await api().put(`/snippets/${id}/`).set(as('alice')).set('If-Match', value).send({ code: 'v2' }).expect(412);
      }
      expect(await revisionCount(id)).to.equal(1);
    });

    it('an ifMatch field in the body is not a precondition', async () => {
      await api().put(`/snippets/${id}/`).set(as('alice')).send({ code: 'v2', ifMatch: '"99"' }).expect(200);
    });

    it('N truly concurrent PUTs with the same ETag: exactly one 200, the others 412, one revision added', async () => {
      const N = 8;
      const answers = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          api()
            .put(`/snippets/${id}/`)
            .set(as('alice'))
            .set('If-Match', etag)
            .send({ code: `writer ${i}` }),
        ),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).to.deep.equal([200, ...Array(N - 1).fill(412)]);
      const winner = answers.find((r) => r.status === 200)!.body.code;
      expect((await api().get(`/snippets/${id}/`).expect(200)).body.code).to.equal(winner);
      expect(await revisionCount(id)).to.equal(2);
    });

    it('N concurrent PUTs without If-Match: every one saved, each as its own revision', async () => {
      const N = 6;
      const answers = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          api()
            .put(`/snippets/${id}/`)
            .set(as('alice'))
            .send({ code: `writer ${i}` }),
        ),
      );
      expect(answers.map((r) => r.status)).to.deep.equal(Array(N).fill(200));
      const revisions = (await api().get(`/snippets/${id}/revisions/`).expect(200)).body as { revision: number }[];
      expect(revisions.map((r) => r.revision)).to.deep.equal([7, 6, 5, 4, 3, 2, 1]);
    });
  });

  describe('DELETE /snippets/<pk>/', () => {
    it('with an ETag of an earlier revision: 412, the snippet stays', async () => {
      await api().put(`/snippets/${id}/`).set(as('alice')).send({ code: 'v2' }).expect(200);
      expect(
        (await api().delete(`/snippets/${id}/`).set(as('alice')).set('If-Match', etag).expect(412)).body,
      ).to.deep.equal(PRECONDITION);
      await api().get(`/snippets/${id}/`).expect(200);
    });

    it('with the current ETag, or *: 204', async () => {
      await api().delete(`/snippets/${id}/`).set(as('alice')).set('If-Match', etag).expect(204);
      const other = (await api().post('/snippets/').set(as('alice')).send({ code: 'x' }).expect(201)).body.id;
      await api().delete(`/snippets/${other}/`).set(as('alice')).set('If-Match', '*').expect(204);
    });
  });

  describe('POST /snippets/<pk>/revisions/<n>/restore/', () => {
    it('with an ETag of an earlier revision: 412; with the current one: 200 and the new ETag', async () => {
      await api().put(`/snippets/${id}/`).set(as('alice')).send({ code: 'v2' }).expect(200);
      await api().post(`/snippets/${id}/revisions/1/restore/`).set(as('alice')).set('If-Match', etag).expect(412);
      const res = await api()
        .post(`/snippets/${id}/revisions/1/restore/`)
        .set(as('alice'))
        .set('If-Match', '"2"')
        .expect(200);
      expect(res.headers.etag).to.equal('"3"');
      expect(res.body.code).to.equal('v1');
    });
  });

  describe('on a snippet that does not exist', () => {
    // The contract: "A <pk> that matches no snippet gives 404"; RFC 9110 §13.2.1: a precondition is ignored when the
    // answer without it would be neither 2xx nor 412 (a PUT here never creates, so without If-Match it is a 404).
    it('If-Match: * (or a tag) on PUT, DELETE and restore answers 404, not 412', async () => {
      const gone = id + 1000;
      for (const value of ['*', etag]) {
        expect(
          (
            await api()
              .put(`/snippets/${gone}/`)
              .set(as('alice'))
              .set('If-Match', value)
              .send({ code: 'x' })
              .expect(404)
          ).body,
        ).to.deep.equal({ detail: 'Not found.' });
        await api().delete(`/snippets/${gone}/`).set(as('alice')).set('If-Match', value).expect(404);
        await api().post(`/snippets/${gone}/revisions/1/restore/`).set(as('alice')).set('If-Match', value).expect(404);
      }
    });
  });

  describe('/trpc', () => {
    it('takes ifMatch as an input field and answers 412 PRECONDITION_FAILED on a mismatch', async () => {
      const stale = await api()
        .post('/trpc/snippets.update')
        .set(as('alice'))
        .send({ id, code: 'x', ifMatch: '"5"' })
        .expect(412);
      expect(stale.body.error.data.code).to.equal('PRECONDITION_FAILED');
      await api().post('/trpc/snippets.update').set(as('alice')).send({ id, code: 'x', ifMatch: etag }).expect(200);
    });
  });
});
