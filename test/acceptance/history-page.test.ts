// The diff page people read ignores line-ending-only differences, while the diff a script gets stays the codes' own:
// a snippet saved with CRLF by one client and again with LF by another shows only the line that changed.
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { api, basic, createSnippet } from '../support/http';

describe('the diff page', () => {
  let id: number;
  beforeEach(async () => {
    await resetDatabase();
    await makeUser('alice');
    id = (await createSnippet('alice', { code: 'a = 1\r\nb = 2\r\nc = 3\r\n' })).id;
    await api()
      .put(`/snippets/${id}/`)
      .set('Authorization', basic('alice'))
      .send({ code: 'a = 1\nb = 20\nc = 3\n' })
      .expect(200);
  });

  const changed = (text: string) =>
    [...text.matchAll(/<span class="hljs-(addition|deletion)">([^<]*)<\/span>/g)].map((m) => m[2]!.trim());

  it('as HTML, marks only the line that changed, not those whose line ending did', async () => {
    const res = await api().get(`/snippets/${id}/revisions/2/diff/`).set('Accept', 'text/html').expect(200);
    expect(changed(res.text)).to.deep.equal(['-b = 2', '+b = 20']);
    const from = await api().get(`/snippets/${id}/revisions/2/diff/?from=1`).set('Accept', 'text/html').expect(200);
    expect(changed(from.text)).to.deep.equal(['-b = 2', '+b = 20']);
  });

  it('says so when only the line endings changed', async () => {
    await api()
      .put(`/snippets/${id}/`)
      .set('Authorization', basic('alice'))
      .send({ code: 'a = 1\r\nb = 20\r\nc = 3\r\n' })
      .expect(200);
    const res = await api().get(`/snippets/${id}/revisions/3/diff/`).set('Accept', 'text/html').expect(200);
    expect(res.text).to.include('The code is the same in both revisions but for its line endings.');
  });

  it('leaves the text answer as it was: every line whose ending changed is in it', async () => {
    const res = await api().get(`/snippets/${id}/revisions/2/diff/`).expect(200);
    expect(res.text.split('\n').filter((l) => /^[-+][abc]/.test(l))).to.deep.equal([
      '-a = 1\r',
      '-b = 2\r',
      '-c = 3\r',
      '+a = 1',
      '+b = 20',
      '+c = 3',
    ]);
  });
});

describe('the revisions page', () => {
  it('says for each revision who saved it and how many lines it added and removed, line endings aside', async () => {
    await resetDatabase();
    await makeUser('alice');
    const id = (await createSnippet('alice', { code: 'a = 1\r\nb = 2\r\nc = 3\r\n' })).id;
    for (const code of ['a = 1\nb = 20\nc = 3\n', 'a = 1\nb = 20\nc = 3\nd = 4\ne = 5\n'])
      await api().put(`/snippets/${id}/`).set('Authorization', basic('alice')).send({ code }).expect(200);
    const counts = async (query: string) => {
      const res = await api().get(`/snippets/${id}/revisions/${query}`).set('Accept', 'text/html').expect(200);
      return [
        ...res.text.matchAll(/<li id="revision-(\d+)">[^]*?by ([a-z]+)[^]*?<span class="changes">([^<]*)<\/span>/g),
      ].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
    };
    expect(await counts('')).to.deep.equal(['3 alice +2 −0', '2 alice +1 −1', '1 alice +3 −0']);
    // The last row of a page is counted against the revision on the next page.
    expect(await counts('?limit=2')).to.deep.equal(['3 alice +2 −0', '2 alice +1 −1']);
  });
});
