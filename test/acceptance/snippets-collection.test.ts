// /snippets/: list and create, by requester and input.
import { expect } from 'chai';
import { resetDatabase, makeUser } from '../support/db';
import { api, basic } from '../support/http';

const KEYS = ['id', 'owner', 'title', 'code', 'linenos', 'language', 'style'];

describe('/snippets/', () => {
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    await makeUser('bob');
  });

  describe('GET', () => {
    it('responds 200 with [] when there are no snippets', async () => {
      const res = await api().get('/snippets/').expect(200);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.headers.allow).to.equal('GET, POST, HEAD, OPTIONS');
      expect(res.body).to.deep.equal([]);
    });

    it('lists every snippet in creation order with exactly the representation keys', async () => {
      for (const [user, code] of [
        ['alice', 'a = 1'],
        ['bob', 'b = 2'],
        ['alice', 'c = 3'],
      ] as const) {
        await api().post('/snippets/').set('Authorization', basic(user)).send({ code }).expect(201);
      }
      const res = await api().get('/snippets/').expect(200);
      expect(res.body.map((s: { code: string }) => s.code)).to.deep.equal(['a = 1', 'b = 2', 'c = 3']);
      expect(res.body.map((s: { owner: string }) => s.owner)).to.deep.equal(['alice', 'bob', 'alice']);
      for (const s of res.body) expect(Object.keys(s)).to.deep.equal(KEYS);
      expect(res.text).not.to.include('highlighted');
      expect(res.text).not.to.include('created');
    });

    it('lists each snippet exactly as GET /snippets/<pk>/ represents it, whatever characters it holds', async () => {
      const awkward = 'q"uote\\back\u0000\u0001\u001f\t\r\n\u2028\u2029 </script> 😀 é \ud7ff\ue000';
      const sent = [
        {
          title: awkward.replace('\u0000', ''),
          code: awkward.replace('\u0000', ''),
          linenos: true,
          language: 'js',
          style: 'monokai',
        },
        { code: '   leading and trailing   \n\n', linenos: false },
      ];
      const ids: number[] = [];
      for (const body of sent)
        ids.push((await api().post('/snippets/').set('Authorization', basic('alice')).send(body).expect(201)).body.id);
      const list = await api().get('/snippets/').expect(200);
      const details = await Promise.all(ids.map(async (id) => (await api().get(`/snippets/${id}/`).expect(200)).body));
      expect(list.body).to.deep.equal(details);
      for (const s of list.body) expect(Object.keys(s)).to.deep.equal(KEYS);
      expect(list.body[0].linenos).to.equal(true);
      expect(list.body[1].linenos).to.equal(false);
    });
  });

  describe('HEAD', () => {
    it('responds 200 with the GET headers and no body', async () => {
      const res = await api().head('/snippets/').expect(200);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.text ?? '').to.equal('');
    });
  });

  describe('POST', () => {
    describe('as an authenticated user', () => {
      it('responds 201 with the new snippet, defaults filled in, owner from the credentials', async () => {
        const res = await api()
          .post('/snippets/')
          .set('Authorization', basic('alice'))
          .send({ code: 'print(123)' })
          .expect(201);
        expect(Object.keys(res.body)).to.deep.equal(KEYS);
        expect(res.body).to.include({
          owner: 'alice',
          title: '',
          code: 'print(123)',
          linenos: false,
          language: 'python',
          style: 'friendly',
        });
        expect(res.body.id).to.be.a('number');
      });

      it('stores code exactly as sent, leading and trailing whitespace included', async () => {
        const code = '\n    indented()\n\t\n';
        const res = await api()
          .post('/snippets/')
          .set('Authorization', basic('alice'))
          .send({ code, title: '  spaced  ' })
          .expect(201);
        expect(res.body.code).to.equal(code);
        const again = await api().get(`/snippets/${res.body.id}/`).expect(200);
        expect(again.body.code).to.equal(code);
        expect(again.body.title).to.equal('  spaced  ');
      });

      it('ignores id and owner in the input', async () => {
        const res = await api()
          .post('/snippets/')
          .set('Authorization', basic('alice'))
          .send({ id: 777, owner: 'bob', code: 'x' })
          .expect(201);
        expect(res.body.id).not.to.equal(777);
        expect(res.body.owner).to.equal('alice');
      });

      it('accepts every field in JSON', async () => {
        const body = {
          title: 'Hello',
          code: 'int main(void) { return 0; }',
          linenos: true,
          language: 'c',
          style: 'monokai',
        };
        const res = await api().post('/snippets/').set('Authorization', basic('alice')).send(body).expect(201);
        expect(res.body).to.include(body);
      });

      it('accepts a form-urlencoded body', async () => {
        const res = await api()
          .post('/snippets/')
          .set('Authorization', basic('alice'))
          .type('form')
          .send('title=form+post&code=int+main(void)+%7B+return+0%3B+%7D&linenos=true&language=c&style=monokai')
          .expect(201);
        expect(res.body).to.include({
          title: 'form post',
          code: 'int main(void) { return 0; }',
          linenos: true,
          language: 'c',
        });
      });

      it('accepts a multipart/form-data body', async () => {
        const res = await api()
          .post('/snippets/')
          .set('Authorization', basic('alice'))
          .field('code', 'puts 1')
          .field('language', 'ruby')
          .expect(201);
        expect(res.body).to.include({ code: 'puts 1', language: 'ruby', linenos: false });
      });

      for (const [value, expected] of [
        ['true', true],
        ['True', true],
        ['1', true],
        ['on', true],
        ['false', false],
        ['False', false],
        ['0', false],
        ['off', false],
      ] as const) {
        it(`reads linenos=${value} in a form as ${expected}`, async () => {
          const res = await api()
            .post('/snippets/')
            .set('Authorization', basic('alice'))
            .type('form')
            .send({ code: 'x', linenos: value })
            .expect(201);
          expect(res.body.linenos).to.equal(expected);
        });
        it(`reads linenos "${value}" in JSON as ${expected}`, async () => {
          const res = await api()
            .post('/snippets/')
            .set('Authorization', basic('alice'))
            .send({ code: 'x', linenos: value })
            .expect(201);
          expect(res.body.linenos).to.equal(expected);
        });
      }

      it('accepts 100,000 characters of emoji (characters, not UTF-16 units or bytes)', async () => {
        const code = '😀'.repeat(100000);
        const res = await api().post('/snippets/').set('Authorization', basic('alice')).send({ code }).expect(201);
        expect(res.body.code).to.equal(code);
      });

      it('accepts 100,000 emoji sent as \\u escapes, the costliest JSON encoding', async () => {
        const body = `{"code":"${'\\ud83d\\ude00'.repeat(100000)}","title":"${'\\ud83d\\ude00'.repeat(100)}"}`;
        const res = await api()
          .post('/snippets/')
          .set('Authorization', basic('alice'))
          .type('json')
          .send(body)
          .expect(201);
        expect([...res.body.code].length).to.equal(100000);
      });

      it('accepts 100,000 emoji form-urlencoded, the costliest form encoding', async () => {
        const body = `code=${encodeURIComponent('😀'.repeat(100000))}`;
        const res = await api()
          .post('/snippets/')
          .set('Authorization', basic('alice'))
          .type('form')
          .send(body)
          .expect(201);
        expect([...res.body.code].length).to.equal(100000);
      });
    });

    describe('without credentials', () => {
      it('responds 401 with the Basic challenge and stores nothing', async () => {
        const res = await api().post('/snippets/').send({ code: 'print(123)' }).expect(401);
        expect(res.headers['www-authenticate']).to.equal('Basic realm="api"');
        expect(res.body).to.deep.equal({ detail: 'Authentication credentials were not provided.' });
        expect((await api().get('/snippets/')).body).to.deep.equal([]);
      });
    });

    describe('with wrong credentials', () => {
      it('responds 401 "Invalid username/password." for a wrong password', async () => {
        const res = await api()
          .post('/snippets/')
          .set('Authorization', basic('alice', 'wrong'))
          .send({ code: 'x' })
          .expect(401);
        expect(res.headers['www-authenticate']).to.equal('Basic realm="api"');
        expect(res.body).to.deep.equal({ detail: 'Invalid username/password.' });
      });
    });
  });
});
