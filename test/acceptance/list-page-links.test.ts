// The browsable snippet list's links, read in its HTML and followed as a browser would (an href, GET): the pager's
// Next and Previous keeping the limit the URL gave, a user's page linking that user's snippets, a search's marked lines
// linking their line. Moved from the page tests (issue 32: a supertest request costs a fraction of a Chromium page);
// what needs a browser stays there: the filter form's submission (test/browser/list-filters.test.ts), the first page's
// layout (test/browser/list-paging.test.ts), a line's :target (test/browser/snippet-page.test.ts).
import { expect } from 'chai';
import { makeUser, resetDatabase } from '../support/db';
import { api, createSnippet } from '../support/http';

/** The page at `path` as a browser asks for it: its HTML. */
const htmlAt = async (path: string) => (await api().get(path).set('Accept', 'text/html').expect(200)).text;

/** The href of the first `<a>` whose opening tag matches `attributes` (e.g. `class="next"`), as a browser reads it. */
function hrefOf(html: string, attributes: string): string | undefined {
  const tag = new RegExp(`<a [^>]*${attributes}[^>]*>`).exec(html)?.[0];
  return tag && /href="([^"]*)"/.exec(tag)?.[1]!.replaceAll('&amp;', '&');
}

/** The snippet ids of the list page's rows, in order. */
const shownIds = (html: string) =>
  [...html.matchAll(/<li class="snippet-row" id="snippet-(\d+)">/g)].map((m) => +m[1]!);

/** The titles of the list page's rows, as text. */
const shownTitles = (html: string) =>
  [...html.matchAll(/<a class="title" href="[^"]*">(.*?)<\/a>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''));

describe('the browsable snippet list, paged, as HTML', () => {
  let ids: number[];

  before(async () => {
    await resetDatabase();
    await makeUser('alice');
    ids = [];
    for (let i = 0; i < 25; i++)
      ids.push((await createSnippet('alice', { title: `snippet ${i}`, code: `x = ${i}` })).id);
  });

  it('keeps a limit the URL gives, forward and back through a middle page', async () => {
    let page = await htmlAt('/snippets/?limit=10');
    expect(shownIds(page)).to.deep.equal(ids.slice(0, 10));
    page = await htmlAt(hrefOf(page, 'class="next"')!);
    expect(shownIds(page)).to.deep.equal(ids.slice(10, 20));
    page = await htmlAt(hrefOf(page, 'class="next"')!);
    expect(shownIds(page)).to.deep.equal(ids.slice(20));
    const previous = hrefOf(page, 'class="previous"')!;
    expect(new URL(previous, 'http://x').searchParams.get('limit')).to.equal('10');
    page = await htmlAt(previous);
    expect(shownIds(page)).to.deep.equal(ids.slice(10, 20));
    page = await htmlAt(hrefOf(page, 'class="previous"')!);
    expect(shownIds(page)).to.deep.equal(ids.slice(0, 10));
    expect(hrefOf(page, 'class="previous"')).to.equal(undefined);
  });

  it('leaves the JSON list whole', async () => {
    const res = await api().get('/snippets/').expect(200);
    expect(res.headers.link).to.equal(undefined);
    expect((res.body as { id: number }[]).map((s) => s.id)).to.deep.equal(ids);
  });
});

describe("the browsable list's links to a user's snippets and to a search's lines, as HTML", () => {
  beforeEach(async () => {
    await resetDatabase();
  });

  it("links a user's page to that user's snippets", async () => {
    const aliceId = (await makeUser('alice')).id;
    await makeUser('bob');
    for (let i = 0; i < 6; i++) {
      for (const user of ['alice', 'bob']) await createSnippet(user, { title: `${user} ${i}`, code: `print(${i})` });
    }
    const href = hrefOf(await htmlAt(`/users/${aliceId}/`), 'id="user-snippets-link"');
    expect(href).to.equal('/snippets/?owner=alice');
    const titles = shownTitles(await htmlAt(href!));
    expect(titles).to.have.length(6);
    expect(titles.every((t) => t.startsWith('alice '))).to.equal(true);
  });

  it('shows a search result with the lines that matched, the term marked, linked to its line', async () => {
    await makeUser('alice');
    const { id } = await createSnippet('alice', { code: 'one\ndef retry_backoff():\n    pass\n', title: 'net' });
    await createSnippet('alice', { code: 'nothing here' });
    const page = await htmlAt('/snippets/?search=BACKOFF');
    expect(shownIds(page)).to.deep.equal([id]);
    expect([...page.matchAll(/<mark>([^<]*)<\/mark>/g)].map((m) => m[1])).to.deep.equal(['backoff']);
    const matches = /<ol class="matches">(.*?)<\/ol>/s.exec(page)?.[1] ?? '';
    expect([...matches.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).to.deep.equal([`/snippets/${id}/#L2`]);
  });
});
