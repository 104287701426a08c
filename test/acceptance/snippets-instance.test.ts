// /snippets/<pk>/: get, put and delete, by requester.
import { expect } from 'chai';
import { resetDatabase, makeUser } from '../support/db';
import { api, basic } from '../support/http';

async function create(user: string, body: Record<string, unknown>): Promise<number> {
  const res = await api().post('/snippets/').set('Authorization', basic(user)).send(body).expect(201);
  return res.body.id;
}

describe('/snippets/<pk>/', () => {
  let id: number;
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    await makeUser('bob');
    id = await create('alice', { title: 'to edit', code: 'x = 1', linenos: true, language: 'c', style: 'monokai' });
  });

  describe('GET', () => {
    it('responds 200 with the representation for anyone', async () => {
      const res = await api().get(`/snippets/${id}/`).expect(200);
      expect(res.headers.allow).to.equal('GET, PUT, DELETE, HEAD, OPTIONS');
      expect(res.body).to.deep.equal({
        id,
        owner: 'alice',
        title: 'to edit',
        code: 'x = 1',
        linenos: true,
        language: 'c',
        style: 'monokai',
      });
    });

    it('responds 404 {"detail":"Not found."} for an unknown pk', async () => {
      const res = await api().get('/snippets/999999/').expect(404);
      expect(res.body).to.deep.equal({ detail: 'Not found.' });
    });

    it('responds 404 for a pk too large for any row', async () => {
      await api().get('/snippets/99999999999999999999999/').expect(404);
    });

    it('responds 404 for a non-digit pk', async () => {
      for (const pk of ['abc', '-1', '1.5', '%31']) {
        const res = await api().get(`/snippets/${pk}/`).expect(404);
        expect(res.body).to.deep.equal({ detail: 'Not found.' });
      }
    });

    it('responds 404 without the trailing slash', async () => {
      await api().get(`/snippets/${id}`).expect(404);
    });
  });

  describe('HEAD', () => {
    it('responds 200 with no body', async () => {
      const res = await api().head(`/snippets/${id}/`).expect(200);
      expect(res.text ?? '').to.equal('');
      expect(res.headers['content-type']).to.match(/^application\/json/);
    });
    it('responds 404 for an unknown pk', async () => {
      await api().head('/snippets/999999/').expect(404);
    });
  });

  describe('PUT', () => {
    describe('as the owner', () => {
      it('responds 200 with the updated snippet', async () => {
        const body = { title: 'edited', code: 'x = 2', linenos: false, language: 'python', style: 'friendly' };
        const res = await api().put(`/snippets/${id}/`).set('Authorization', basic('alice')).send(body).expect(200);
        expect(res.body).to.deep.equal({ id, owner: 'alice', ...body });
        expect((await api().get(`/snippets/${id}/`)).body).to.deep.equal({ id, owner: 'alice', ...body });
      });

      it('keeps the stored value of an omitted optional field', async () => {
        const res = await api()
          .put(`/snippets/${id}/`)
          .set('Authorization', basic('alice'))
          .send({ code: 'y = 3' })
          .expect(200);
        expect(res.body).to.deep.equal({
          id,
          owner: 'alice',
          title: 'to edit',
          code: 'y = 3',
          linenos: true,
          language: 'c',
          style: 'monokai',
        });
      });

      it('renders the highlighted document again from the new code and the stored fields it did not send', async () => {
        await api()
          .put(`/snippets/${id}/`)
          .set('Authorization', basic('alice'))
          .send({ code: 'int changed_name = 3;' })
          .expect(200);
        const page = await api().get(`/snippets/${id}/highlight/`).expect(200);
        expect(page.text).to.include('changed_name').and.include('<title>to edit</title>');
        expect(page.text).to.include('class="linenos"'); // linenos stayed true
        expect(page.text).not.to.include('x = 1');
      });

      it('responds 400 {"code":["This field is required."]} without code, changing nothing', async () => {
        const res = await api()
          .put(`/snippets/${id}/`)
          .set('Authorization', basic('alice'))
          .send({ title: 'no code' })
          .expect(400);
        expect(res.body).to.deep.equal({ code: ['This field is required.'] });
        expect((await api().get(`/snippets/${id}/`)).body.title).to.equal('to edit');
      });

      it('reads linenos=false from a form as false', async () => {
        const res = await api()
          .put(`/snippets/${id}/`)
          .set('Authorization', basic('alice'))
          .type('form')
          .send({ code: 'x', linenos: 'false' })
          .expect(200);
        expect(res.body.linenos).to.equal(false);
      });

      it('responds 404 for an unknown pk', async () => {
        await api().put('/snippets/999999/').set('Authorization', basic('alice')).send({ code: 'x' }).expect(404);
      });
    });

    describe('as a user who does not own it', () => {
      it('responds 403 without WWW-Authenticate and changes nothing', async () => {
        const res = await api()
          .put(`/snippets/${id}/`)
          .set('Authorization', basic('bob'))
          .send({ code: 'hijack' })
          .expect(403);
        expect(res.headers).not.to.have.property('www-authenticate');
        expect(res.body).to.deep.equal({ detail: 'You do not have permission to perform this action.' });
        expect((await api().get(`/snippets/${id}/`)).body.code).to.equal('x = 1');
      });

      it('responds 403 before validating the body', async () => {
        await api().put(`/snippets/${id}/`).set('Authorization', basic('bob')).send({ title: 'no code' }).expect(403);
      });
    });

    describe('without credentials', () => {
      it('responds 401 with the challenge, before looking the snippet up', async () => {
        for (const path of [`/snippets/${id}/`, '/snippets/999999/']) {
          const res = await api().put(path).send({ code: 'anon' }).expect(401);
          expect(res.headers['www-authenticate']).to.equal('Basic realm="api"');
          expect(res.body).to.deep.equal({ detail: 'Authentication credentials were not provided.' });
        }
      });
    });
  });

  describe('DELETE', () => {
    it('as the owner responds 204 with an empty body and no Content-Type, then the snippet is gone', async () => {
      const res = await api().delete(`/snippets/${id}/`).set('Authorization', basic('alice')).expect(204);
      expect(res.text ?? '').to.equal('');
      expect(res.headers).not.to.have.property('content-type');
      await api().get(`/snippets/${id}/`).expect(404);
      await api().delete(`/snippets/${id}/`).set('Authorization', basic('alice')).expect(404);
    });

    it('as a user who does not own it responds 403 and keeps the snippet', async () => {
      await api().delete(`/snippets/${id}/`).set('Authorization', basic('bob')).expect(403);
      await api().get(`/snippets/${id}/`).expect(200);
    });

    it('without credentials responds 401', async () => {
      await api().delete(`/snippets/${id}/`).expect(401);
    });
  });

  describe('methods not offered', () => {
    for (const method of ['patch', 'post'] as const) {
      it(`${method.toUpperCase()} as the owner responds 405 with Allow and detail`, async () => {
        const res = await api()
          [method](`/snippets/${id}/`)
          .set('Authorization', basic('alice'))
          .send({ title: 'p' })
          .expect(405);
        expect(res.headers.allow).to.equal('GET, PUT, DELETE, HEAD, OPTIONS');
        expect(res.body).to.deep.equal({ detail: `Method "${method.toUpperCase()}" not allowed.` });
      });
    }

    it('PATCH without credentials is refused by the permission check first (401)', async () => {
      await api().patch(`/snippets/${id}/`).send({ title: 'p' }).expect(401);
    });

    it('DELETE /snippets/ responds 405', async () => {
      const res = await api().delete('/snippets/').set('Authorization', basic('alice')).expect(405);
      expect(res.body).to.deep.equal({ detail: 'Method "DELETE" not allowed.' });
    });
  });
});
