// The stored document: structure, escaping, line alignment, every style's CSS, sorted choices.
import { expect } from 'chai';
import { LANGUAGE_CHOICES, STYLE_CHOICES, renderPlain } from '../../../src/highlight';
import { themeCss } from '../../../src/highlight/themes';

import { testRuntime, testStore } from '../../support/runtime';

const input = { code: 'print("hi")\n', language: 'python', style: 'friendly', title: '', linenos: false };

function countMatches(html: string, re: RegExp): number {
  return [...html.matchAll(re)].length;
}

/** The code cell's lines, split on the newlines between line-number spans' counterparts. */
function codeLines(html: string): string[] {
  const code = /<pre class="hljs"><code>([\s\S]*)\n<\/code><\/pre>/.exec(html)![1]!;
  return code.split('\n');
}

describe('the highlighted document', () => {
  it('is a complete HTML document with UTF-8, a title, and the style CSS inline', async () => {
    const html = await testRuntime().highlighter.render({ ...input, title: 'T' });
    expect(html).to.match(/^<!DOCTYPE html>\n<html>/);
    expect(html)
      .to.include('<meta charset="utf-8">')
      .and.include('<title>T</title>')
      .and.include('<style type="text/css">');
    expect(html).to.include('.hljs-comment');
    expect(html.trimEnd()).to.match(/<\/html>$/);
  });

  it('has <h2> only for a non-empty title', async () => {
    expect(await testRuntime().highlighter.render({ ...input, title: 'Hello' })).to.include('<h2>Hello</h2>');
    expect(await testRuntime().highlighter.render(input)).not.to.include('<h2>');
  });

  it('has the line-number table only with linenos', async () => {
    const table = await testRuntime().highlighter.render({ ...input, code: 'a = 1\nb = 2\nc = 3\n', linenos: true });
    expect(table).to.include('<table class="highlighttable"><tr><td class="linenos">');
    expect(countMatches(table, /<span class="normal">\d+<\/span>/g)).to.equal(3);
    const plain = await testRuntime().highlighter.render({ ...input, code: 'a = 1\nb = 2\n' });
    expect(plain).not.to.include('<table class="highlighttable">');
    expect(plain).to.include('<div class="highlight"><pre class="hljs">');
  });

  // Each combination of title and linenos, from each renderer: the highlighter's pool, the plain rendering (the
  // fallback past the deadline) and the Snippet model's beforeSave hook (what a save stores).
  const renderers = {
    'the highlighter': (fields: typeof input) => testRuntime().highlighter.render(fields),
    'the plain rendering': async (fields: typeof input) => renderPlain(fields),
    "the model's hook": (fields: typeof input) => testStore().models.Snippet.render(fields),
  };
  for (const [renderer, render] of Object.entries(renderers))
    for (const title of ['', 'A & B'])
      for (const linenos of [false, true])
        it(`from ${renderer}, title ${JSON.stringify(title)} and linenos ${linenos}: the <h2> title exactly when titled, the line numbers exactly with linenos`, async () => {
          const html = await render({ ...input, code: 'a = 1\nb = 2\n', title, linenos });
          expect(html).to.include(`<title>${title.replace('&', '&amp;')}</title>`);
          expect(countMatches(html, /<h2>/g)).to.equal(title ? 1 : 0);
          // The title heads the body, before the code.
          if (title) expect(html).to.match(/<body class="hljs">\n<h2>A &amp; B<\/h2>\n+<div class="highlight">/);
          expect(countMatches(html, /<table class="highlighttable">/g)).to.equal(linenos ? 1 : 0);
          expect(countMatches(html, /<span class="normal">\d+<\/span>/g)).to.equal(linenos ? 2 : 0);
          expect(codeLines(html)).to.have.length(2);
        });

  it('escapes a title and code full of <script>, quotes and &', async () => {
    const hostile = '<script>alert("x")</script> & \'quoted\' "double"';
    for (const linenos of [true, false]) {
      const html = await testRuntime().highlighter.render({
        code: hostile,
        title: hostile,
        language: 'html',
        style: 'monokai',
        linenos,
      });
      expect(html).not.to.include('<script>');
      expect(html).to.include(
        '<title>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;quoted&#x27; &quot;double&quot;</title>',
      );
      const plain = renderPlain({ code: hostile, title: hostile, language: 'html', style: 'monokai', linenos });
      expect(plain).not.to.include('<script>');
    }
  });

  for (const [language, code] of [
    ['python', 'x = """one\ntwo\nthree"""\n# done\ny = 1\n'],
    ['javascript', '/* a\n * long\n * comment */\nconst s = `multi\nline`;\n'],
    ['c', '/*\n block\n*/\nint main(void) {\n  return 0;\n}\n'],
    ['html', '<!--\n a comment\n-->\n<p class="x">\n text\n</p>\n'],
    ['sql', "SELECT 'a\nb' FROM t;\n-- end\n"],
  ] as const) {
    it(`keeps every ${language} line beside its number, across multi-line strings and comments`, async () => {
      const html = await testRuntime().highlighter.render({
        code,
        language,
        style: 'friendly',
        title: '',
        linenos: true,
      });
      const numbers = countMatches(html, /<span class="normal">\d+<\/span>/g);
      const lines = codeLines(html);
      expect(numbers).to.equal(code.split('\n').length - 1);
      expect(lines).to.have.length(numbers);
      for (const line of lines) {
        // each line closes every span it opens
        expect(countMatches(line, /<span/g)).to.equal(countMatches(line, /<\/span>/g));
      }
    });
  }

  it('offers sorted choices with the defaults python and friendly', () => {
    for (const choices of [LANGUAGE_CHOICES, STYLE_CHOICES]) {
      const values = choices.map((c) => c.value);
      expect(values).to.deep.equal([...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      expect(new Set(values).size).to.equal(values.length);
    }
    expect(LANGUAGE_CHOICES.map((c) => c.value)).to.include.members(['python', 'py', 'javascript', 'js', 'c', 'sql']);
    expect(STYLE_CHOICES.map((c) => c.value)).to.include.members([
      'friendly',
      'monokai',
      'github',
      'base16/solarized-dark',
    ]);
  });

  it('has CSS for every style', () => {
    for (const { value } of STYLE_CHOICES) expect(themeCss(value), value).to.match(/\.hljs[\s{,.-]/);
  });
});
