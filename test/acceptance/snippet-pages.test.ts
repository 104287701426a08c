// The pages people use, as HTML: the snippet page leads with its code, the list shows previews (never whole code) and
// marked search matches, a paste from a form lands on its page with a 303, while JSON clients get what they always got.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic } from '../support/http';

const HTML = 'text/html';

describe('the snippet pages', () => {
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
  });

  const create = (fields: Record<string, unknown>) =>
    api().post('/snippets/').set('Authorization', basic('alice')).send(fields).expect(201);

  describe('POST /snippets/', () => {
    it('as a form asking for HTML, answers 303 to the new snippet page', async () => {
      const res = await api()
        .post('/snippets/')
        .set('Authorization', basic('alice'))
        .set('Accept', HTML)
        .type('form')
        .send({ code: 'x = 1', language: 'python' })
        .expect(303);
      const [snippet] = (await api().get('/snippets/').expect(200)).body as { id: number }[];
      expect(res.headers.location).to.equal(`/snippets/${snippet!.id}/`);
    });

    it('as the same form asking for JSON, answers the 201 with its body, a Location and an ETag', async () => {
      const res = await api()
        .post('/snippets/')
        .set('Authorization', basic('alice'))
        .type('form')
        .send({ code: 'x = 1\r\n', language: 'python' })
        .expect(201);
      expect(Object.keys(res.body)).to.deep.equal(['id', 'owner', 'title', 'code', 'linenos', 'language', 'style']);
      expect(res.body.code).to.equal('x = 1\r\n');
      expect(res.headers.location).to.match(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/snippets/${res.body.id}/$`));
      expect(res.headers.etag).to.equal('"1"');
    });

    it('from a page stores LF for a CRLF textarea and guesses a language left to detect, from the file name first', async () => {
      const send = (fields: Record<string, string>) =>
        api()
          .post('/snippets/')
          .set('Authorization', basic('alice'))
          .set('Accept', HTML)
          .type('form')
          .send(fields)
          .expect(303);
      await send({ code: 'fn main() {}\r\nlet x = 1;\r\n', language: '', filename: 'main.rs', title: '' });
      await send({
        code: '#!/usr/bin/env python3\nimport os\n\ndef main():\n    print(os.getcwd())\n\nif __name__ == "__main__":\n    main()\n',
        language: '',
        filename: '',
      });
      const [rust, python] = (await api().get('/snippets/').expect(200)).body as Record<string, string>[];
      expect(rust).to.include({ code: 'fn main() {}\nlet x = 1;\n', language: 'rs', title: 'main.rs' });
      expect(python).to.include({ language: 'python', title: '' });
    });
  });

  describe('PUT /snippets/<pk>/', () => {
    it('answers its ETag, the new revision', async () => {
      const { id } = (await create({ code: 'a' })).body;
      const res = await api()
        .put(`/snippets/${id}/`)
        .set('Authorization', basic('alice'))
        .send({ code: 'b' })
        .expect(200);
      expect(res.headers.etag).to.equal('"2"');
      expect(res.headers.location).to.equal(undefined);
    });
  });

  describe('GET /snippets/<pk>/ as HTML', () => {
    it('leads with the highlighted code, its lines linked, then the API answer folded', async () => {
      const { id } = (await create({ code: 'def f():\n    return "<b>"\n', title: 'T <i>', style: 'monokai' })).body;
      const res = await api().get(`/snippets/${id}/`).set('Accept', HTML).expect(200);
      expect(res.text).to.include('<meta name="viewport"');
      expect(res.text).to.include('<link rel="stylesheet" href="/themes/monokai.css">');
      expect(res.text).to.include('<a class="ln" href="#L2" aria-label="Line 2"></a>');
      expect(res.text).to.include('<span class="hljs-keyword">def</span>');
      expect(res.text).to.include('&quot;&lt;b&gt;&quot;').and.not.include('"<b>"').and.not.include('<i>');
      expect(res.text.indexOf('class="code-box"')).to.be.lessThan(res.text.indexOf('id="api-panel"'));
      expect(res.text).to.match(/<details class="api-panel" id="api-panel">/);
      expect(res.text).to.include('revision 1');
      await api()
        .get('/themes/monokai.css')
        .expect(200)
        .expect('Content-Type', /text\/css/);
      await api().get('/themes/base16/monokai.css').expect(200);
      await api().get('/themes/nope.css').expect(404);
    });

    it('is the browsable API page at ?format=api, and JSON without Accept', async () => {
      const { id } = (await create({ code: 'x' })).body;
      const page = await api().get(`/snippets/${id}/?format=api`).expect(200);
      expect(page.text).to.include('<div class="response" id="response">');
      const json = await api().get(`/snippets/${id}/`).expect(200);
      expect(json.headers['content-type']).to.equal('application/json; charset=utf-8');
    });
  });

  describe('GET /snippets/<pk>/download/', () => {
    it('answers the code as an attachment named from the title, or the language', async () => {
      const titled = (await create({ code: 'fn main() {}', title: 'My tool!', language: 'rust' })).body;
      const res = await api().get(`/snippets/${titled.id}/download/`).expect(200);
      expect(res.headers['content-disposition']).to.equal('attachment; filename=My-tool.rs');
      expect(res.text).to.equal('fn main() {}');
      const named = (await create({ code: 'x', title: 'main.go', language: 'go' })).body;
      expect((await api().get(`/snippets/${named.id}/download/`)).headers['content-disposition']).to.equal(
        'attachment; filename=main.go',
      );
      const untitled = (await create({ code: 'x' })).body;
      expect((await api().get(`/snippets/${untitled.id}/download/`)).headers['content-disposition']).to.equal(
        `attachment; filename=snippet-${untitled.id}.py`,
      );
    });
  });

  describe('GET /snippets/ as HTML', () => {
    it('keeps a page of 20 snippets of 30 KB each under 100 KB: previews, never whole code', async () => {
      const line = 'value = compute(alpha, beta, gamma) + adjust(delta)  # a line of thirty-odd KB\n';
      const code = line.repeat(Math.ceil(30_000 / line.length));
      for (let i = 0; i < 20; i++) await create({ code, title: `big ${i}` });
      const res = await api().get('/snippets/').set('Accept', HTML).expect(200);
      expect(res.text.match(/class="snippet-row"/g)).to.have.length(20);
      expect(Buffer.byteLength(res.text)).to.be.lessThan(100_000);
    });

    it('shows a search result with the matched lines, the terms marked and escaped, linked to their lines', async () => {
      const { id } = (await create({ code: 'first\nthe <Needle> here\nlast\n', title: 'x' })).body;
      const res = await api().get('/snippets/?search=needle').set('Accept', HTML).expect(200);
      expect(res.text).to.include(
        `<a href="/snippets/${id}/#L2"><span class="lnum">2</span> <code>the &lt;<mark>Needle</mark>&gt; here</code></a>`,
      );
    });
  });
});
